/**
 * Monogram icons for the demo businesses. We ship no trademark logos, so each business gets a
 * rounded square in a colour derived from its title with one or two letters on it.
 */

const FONT_STACK = 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif';
const DARK_TEXT = '#1b1b1f';
const LIGHT_TEXT = '#ffffff';

const escapeXml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);

/** FNV-1a: stable across runs and platforms, so an install always gets the same colours. */
function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (const char of value) {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [channel(0), channel(8), channel(4)];
}

const toHex = (rgb: readonly number[]): string => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 relative luminance. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Text on the icon must reach WCAG AA for normal text (4.5:1), though it is large and bold. */
const MIN_CONTRAST = 4.5;

export function monogramColours(title: string): { background: string; text: string } {
  const hash = hashString(title);
  const hue = hash % 360;
  const saturation = 0.45 + ((hash >>> 9) % 25) / 100;
  let lightness = 0.34 + ((hash >>> 17) % 26) / 100;
  let background = toHex(hslToRgb(hue, saturation, lightness));
  const text = contrastRatio(background, LIGHT_TEXT) >= contrastRatio(background, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
  // Mid-tones reach neither 4.5:1 with white nor with dark text; push them away from the text.
  while (contrastRatio(background, text) < MIN_CONTRAST) {
    lightness += text === LIGHT_TEXT ? -0.02 : 0.02;
    background = toHex(hslToRgb(hue, saturation, lightness));
  }
  return { background, text };
}

/** First letters of the first two words ("ICA Maxi" → "IM", "H&M" → "HM"), else one letter. */
export function monogramLetters(title: string): string {
  const words = title.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => word[0])
    .join('')
    .toLocaleUpperCase('sv-SE');
}

export function monogramSvg(title: string, letters = monogramLetters(title)): string {
  const { background, text } = monogramColours(title);
  const fontSize = [...letters].length > 1 ? 104 : 128;
  // dy instead of dominant-baseline: librsvg (sharp) and every browser centre it the same way.
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="256" height="256" rx="56" ry="56" fill="${background}"/>`,
    `<text x="128" y="128" dy="0.35em" text-anchor="middle" font-family="${FONT_STACK}" font-size="${fontSize}" font-weight="700" fill="${text}">${escapeXml(letters)}</text>`,
    '</svg>',
  ].join('');
}
