/** A route's method and OpenAPI path (`{id}` is one path segment) as a matcher. */
interface RouteMatcher {
  method: string;
  pattern: RegExp;
}

/**
 * The methods that `path` answers to, from the route table (HEAD wherever GET is): empty when
 * no route has the path. Hono answers an unknown method with 404; this turns it into 405 + Allow.
 */
export function allowedMethods(
  routes: readonly { method: string; path: string }[],
): (path: string) => string[] {
  const matchers: RouteMatcher[] = routes.map((route) => ({
    method: route.method,
    pattern: new RegExp(
      `^${route.path
        .split(/\{[^}]+\}/)
        .map(escapeRegExp)
        .join('[^/]+')}$`,
    ),
  }));
  return (path) => {
    const methods = new Set<string>();
    for (const matcher of matchers)
      if (matcher.pattern.test(path)) {
        methods.add(matcher.method);
        if (matcher.method === 'GET') methods.add('HEAD');
      }
    return [...methods];
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
