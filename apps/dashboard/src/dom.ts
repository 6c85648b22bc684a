/**
 * The one way the dashboard builds DOM: elements from a tag, attributes and children, where a
 * string child is always a text node. Nothing here (or anywhere in the dashboard) assigns
 * `innerHTML`: model output, tool arguments and results are untrusted and can only ever be text.
 */

/** A child: an element, text (escaped by being a text node), or nothing. */
export type Child = Node | string | number | false | null | undefined;

/** Attributes and event handlers of {@link h}: `on<event>` keys take a listener. */
export type Attributes = Record<string, string | number | boolean | undefined | EventListener>;

/** Creates `<tag>` with `attributes` (false/undefined skipped, true as an empty attribute) and `children`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, ...children);
  return element;
}

/** Appends children to `parent`, strings as text nodes. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    parent.appendChild(
      typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child,
    );
  }
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** JSON as readable text (for inputs, outputs, tool arguments and results), shown in a `<pre>`. */
export function jsonBlock(value: unknown, label: string): HTMLElement {
  const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'undefined');
  return h('pre', { class: 'json', tabindex: 0, 'aria-label': label }, text);
}
