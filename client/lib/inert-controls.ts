// A first paint's controls do nothing until the app has taken them over, so they are disabled
// in its HTML (client/prerender.tsx); the browser enables them again once it has (client/start.tsx).
// No React: the server's renderer and the start chunk both import it.

/** Marks a control a first paint disabled, as opposed to one React renders disabled itself. */
export const INERT_ATTRIBUTE = 'data-inert';

/** React's attributes: a name, and a value always in double quotes (with `"`, `<`, `>` escaped). */
const ATTRIBUTE = /\s([^\s="/>]+)(?:="[^"]*")?/g;

/**
 * Disables every control of a render; those it disables itself are marked, so the browser can
 * enable exactly those again, leaving React's own `disabled` alone. React escapes `>` in
 * attribute values, so `[^>]*` is the rest of the tag.
 */
export function inertControls(html: string): string {
  return html.replace(/<(button|input|select|textarea)(?=[\s>/])([^>]*)>/g, (tag: string, name: string, attributes: string) =>
    [...attributes.matchAll(ATTRIBUTE)].some((a) => a[1] === 'disabled') ? tag : `<${name} disabled ${INERT_ATTRIBUTE}=""${attributes}>`,
  );
}

/** Enables the controls `inertControls` disabled in `container` (a hydrated copy: its elements stay). */
export function enableInertControls(container: ParentNode): void {
  for (const control of container.querySelectorAll(`[${INERT_ATTRIBUTE}]`)) {
    control.removeAttribute('disabled');
    control.removeAttribute(INERT_ATTRIBUTE);
  }
}
