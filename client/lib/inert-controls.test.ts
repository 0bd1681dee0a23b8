import { describe, expect, it } from 'vitest';
import { INERT_ATTRIBUTE, inertControls } from './inert-controls';

describe('inertControls (a first paint whose controls wait for the app)', () => {
  it('disables and marks every control React rendered enabled', () => {
    const html =
      '<form><input type="search" value="ica"/><button type="button" class="btn">Visa fler</button><select name="s"></select><textarea></textarea></form>';
    expect(inertControls(html)).toBe(
      `<form><input disabled ${INERT_ATTRIBUTE}="" type="search" value="ica"/><button disabled ${INERT_ATTRIBUTE}="" type="button" class="btn">Visa fler</button>` +
        `<select disabled ${INERT_ATTRIBUTE}="" name="s"></select><textarea disabled ${INERT_ATTRIBUTE}=""></textarea></form>`,
    );
  });

  it('leaves a control React disabled itself unmarked, so the browser keeps it disabled', () => {
    const html = '<button type="button" disabled="">Skickar</button><input disabled="" type="radio"/><button disabled="" >x</button>';
    expect(inertControls(html)).toBe(html);
  });

  it('does not take a word in an attribute value for the attribute', () => {
    const html = '<button type="button" aria-label="not disabled here &gt; all" title="disabled">i</button>';
    expect(inertControls(html)).toBe(
      `<button disabled ${INERT_ATTRIBUTE}="" type="button" aria-label="not disabled here &gt; all" title="disabled">i</button>`,
    );
  });

  it('leaves elements whose names only begin like a control alone', () => {
    const html = '<buttons></buttons><inputs></inputs><a href="/business">Butiker</a>';
    expect(inertControls(html)).toBe(html);
  });
});
