import { h } from '../dom.ts';

/** What {@link confirmDialog} asks. */
export interface ConfirmOptions {
  title: string;
  body: string;
  confirm: string;
  dismiss: string;
}

/**
 * A modal `<dialog>` asking to confirm a destructive action: focus moves into it, Escape or the
 * dismiss button answer no, and focus returns to where it was. Resolves with the answer.
 */
export function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  const returnFocus = document.activeElement as HTMLElement | null;
  const dialog = h(
    'dialog',
    { 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-body', class: 'confirm' },
    h('h2', { id: 'confirm-title' }, options.title),
    h('p', { id: 'confirm-body' }, options.body),
    h(
      'form',
      { method: 'dialog', class: 'dialog-actions' },
      h('button', { value: 'no', autofocus: true }, options.dismiss),
      h('button', { value: 'yes', class: 'danger' }, options.confirm),
    ),
  );
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'yes');
      dialog.remove();
      returnFocus?.focus();
    });
    dialog.showModal();
  });
}
