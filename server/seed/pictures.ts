/**
 * Pictures for the demo comments. We have no photos to ship (and fetch nothing), so the seed
 * draws the goods a visitor would have come home with: a coffee and a cinnamon bun from a café,
 * a loaf from the grocer, a car battery from Biltema. Each is flat SVG built here, with colours,
 * placement and background varied by a seeded random source, then rasterised and stored through
 * the upload pipeline (server/seed/index.ts), so a picture is a WebP like any a user sends.
 */
import { demoComments, seededRandom } from './community';

export const PICTURE_WIDTH = 960;
export const PICTURE_HEIGHT = 640;

type Colours = { main: string; accent: string; dark: string; light: string };
/** Draws one item standing on the point (x, y), `size` px tall at scale 1 (about 240 px). */
type Motif = (x: number, y: number, s: number, c: Colours) => string;

const f = (n: number) => Math.round(n * 10) / 10;
/** A path whose coordinates are relative to (x, y) and scaled by s ("M 0 0 L 10 -20 …"). */
function rel(d: string, x: number, y: number, s: number): string {
  let axis = 0;
  return d.replace(/-?\d+(?:\.\d+)?/g, (n) => {
    const value = Number(n) * s + (axis++ % 2 === 0 ? x : y);
    return String(f(value));
  });
}
const path = (d: string, x: number, y: number, s: number, attrs: string) => `<path d="${rel(d, x, y, s)}" ${attrs}/>`;
const circle = (cx: number, cy: number, r: number, attrs: string) => `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}" ${attrs}/>`;
const ellipse = (cx: number, cy: number, rx: number, ry: number, attrs: string) =>
  `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" ${attrs}/>`;
const rect = (x: number, y: number, w: number, h: number, r: number, attrs: string) =>
  `<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" rx="${f(r)}" ${attrs}/>`;
const fill = (colour: string) => `fill="${colour}"`;
const stroke = (colour: string, width: number) => `fill="none" stroke="${colour}" stroke-width="${f(width)}" stroke-linecap="round" stroke-linejoin="round"`;

const coffee: Motif = (x, y, s, c) =>
  [
    ellipse(x, y - 8 * s, 120 * s, 22 * s, fill(c.light)),
    path('M -80 -170 L 80 -170 L 64 -30 Q 60 -10 40 -10 L -40 -10 Q -60 -10 -64 -30 Z', x, y, s, fill(c.main)),
    path('M 76 -140 Q 130 -140 120 -95 Q 112 -62 70 -62', x, y, s, stroke(c.main, 16 * s)),
    ellipse(x, y - 170 * s, 80 * s, 16 * s, fill(c.dark)),
    ellipse(x - 20 * s, y - 172 * s, 26 * s, 6 * s, fill(c.accent)),
    path('M -30 -200 Q -45 -230 -30 -255 Q -15 -280 -30 -305', x, y, s, stroke(c.light, 8 * s)),
    path('M 20 -205 Q 5 -235 20 -260 Q 35 -285 20 -310', x, y, s, stroke(c.light, 8 * s)),
  ].join('');

const bun: Motif = (x, y, s) =>
  [
    ellipse(x, y - 50 * s, 110 * s, 52 * s, fill('#c8833f')),
    ellipse(x, y - 62 * s, 98 * s, 42 * s, fill('#dba05a')),
    path('M 0 -62 Q 30 -70 20 -85 Q 0 -100 -30 -80 Q -60 -55 -20 -35 Q 40 -20 70 -55 Q 85 -85 40 -100', x, y, s, stroke('#9a5a25', 9 * s)),
    ...[-50, -20, 15, 45, 70, -70, 0].map((dx, i) => rect(x + dx * s, y - (75 + (i % 3) * 12) * s, 9 * s, 7 * s, 2 * s, fill('#fffaf0'))),
  ].join('');

const bread: Motif = (x, y, s, c) =>
  [
    path('M -150 -10 Q -165 -120 -60 -140 Q 0 -150 60 -140 Q 165 -120 150 -10 Z', x, y, s, fill('#c98a46')),
    path('M -140 -20 Q -150 -110 -60 -128 Q 0 -138 60 -128 Q 150 -110 140 -20 Z', x, y, s, fill('#dca461')),
    ...[-80, -25, 30, 85].map((dx) => path(`M ${dx - 20} -95 Q ${dx} -120 ${dx + 25} -100`, x, y, s, stroke('#f4d9a6', 10 * s))),
    ellipse(x, y - 6 * s, 160 * s, 8 * s, fill(c.dark)),
  ].join('');

const groceries: Motif = (x, y, s, c) =>
  [
    path('M -40 -170 Q -60 -250 -25 -300 L -10 -296 Q -35 -240 -20 -170 Z', x, y, s, fill('#e8c07a')),
    path('M 30 -170 L 55 -290 M 45 -170 L 85 -275 M 20 -170 L 20 -285', x, y, s, stroke('#4f9a45', 14 * s)),
    rect(x - 100 * s, y - 190 * s, 200 * s, 190 * s, 8 * s, fill('#c9a36a')),
    path('M -100 -190 L -85 -215 L 85 -215 L 100 -190 Z', x, y, s, fill('#b38a55')),
    rect(x - 55 * s, y - 130 * s, 110 * s, 70 * s, 10 * s, fill(c.light)),
    circle(x - 20 * s, y - 95 * s, 16 * s, fill(c.accent)),
    circle(x + 18 * s, y - 95 * s, 16 * s, fill(c.main)),
  ].join('');

const fruit: Motif = (x, y, s, c) =>
  [
    circle(x - 70 * s, y - 60 * s, 58 * s, fill('#d94b3d')),
    path('M -70 -118 Q -65 -140 -55 -150', x, y, s, stroke('#5b3a1e', 7 * s)),
    path('M -60 -130 Q -30 -150 -20 -125 Q -45 -115 -60 -130 Z', x, y, s, fill('#4f9a45')),
    circle(x + 60 * s, y - 55 * s, 54 * s, fill('#f39a2b')),
    ...[0, 1, 2, 3, 4].map((i) => circle(x + (45 + (i % 3) * 14) * s, y - (40 + Math.floor(i / 2) * 18) * s, 3 * s, fill('#d97f14'))),
    path('M -10 -40 Q 20 -150 110 -170 Q 70 -120 60 -40 Z', x, y, s, fill('#f2d24b')),
    ellipse(x - 5 * s, y - 4 * s, 150 * s, 8 * s, fill(c.dark)),
  ].join('');

const wine: Motif = (x, y, s, c) =>
  [
    path('M -40 0 L -40 -170 Q -40 -210 -16 -230 L -16 -300 L 16 -300 L 16 -230 Q 40 -210 40 -170 L 40 0 Z', x - 40 * s, y, s, fill(c.dark)),
    rect(x - 80 * s + 2 * s, y - 150 * s, 76 * s, 80 * s, 6 * s, fill(c.light)),
    rect(x - 58 * s, y - 132 * s, 32 * s, 10 * s, 4 * s, fill(c.accent)),
    rect(x - 56 * s, y - 308 * s, 32 * s, 26 * s, 4 * s, fill(c.accent)),
    path('M -45 -200 Q -45 -120 0 -115 Q 45 -120 45 -200 Z', x + 90 * s, y, s, 'fill="#ffffff" fill-opacity="0.6"'),
    path('M -40 -170 Q -38 -122 0 -120 Q 38 -122 40 -170 Z', x + 90 * s, y, s, fill('#8e1b3a')),
    path('M 0 -115 L 0 -10 M -35 -5 L 35 -5', x + 90 * s, y, s, stroke('#e8e8ee', 8 * s)),
  ].join('');

const pills: Motif = (x, y, s, c) =>
  [
    rect(x - 70 * s, y - 210 * s, 140 * s, 210 * s, 18 * s, fill('#f4f1ea')),
    rect(x - 78 * s, y - 250 * s, 156 * s, 48 * s, 10 * s, fill(c.main)),
    rect(x - 70 * s, y - 160 * s, 140 * s, 90 * s, 4 * s, fill(c.light)),
    rect(x - 12 * s, y - 145 * s, 24 * s, 60 * s, 3 * s, fill(c.accent)),
    rect(x - 30 * s, y - 127 * s, 60 * s, 24 * s, 3 * s, fill(c.accent)),
    `<g transform="rotate(-25 ${f(x + 130 * s)} ${f(y - 30 * s)})">${rect(x + 90 * s, y - 48 * s, 84 * s, 34 * s, 17 * s, fill(c.accent))}${rect(x + 132 * s, y - 48 * s, 42 * s, 34 * s, 17 * s, fill('#ffffff'))}</g>`,
    circle(x - 130 * s, y - 20 * s, 20 * s, fill('#ffffff')),
    circle(x - 175 * s, y - 16 * s, 16 * s, fill(c.main)),
  ].join('');

const tools: Motif = (x, y, s, c) =>
  [
    `<g transform="rotate(-30 ${f(x)} ${f(y - 120 * s)})">`,
    rect(x - 12 * s, y - 230 * s, 24 * s, 220 * s, 10 * s, fill('#b07a43')),
    rect(x - 70 * s, y - 260 * s, 120 * s, 50 * s, 8 * s, fill('#5f6670')),
    path('M 50 -260 Q 80 -255 90 -225 L 50 -215 Z', x, y, s, fill('#5f6670')),
    '</g>',
    `<g transform="rotate(28 ${f(x + 20 * s)} ${f(y - 120 * s)})">`,
    rect(x + 8 * s, y - 110 * s, 28 * s, 110 * s, 12 * s, fill(c.main)),
    rect(x + 16 * s, y - 250 * s, 12 * s, 145 * s, 3 * s, fill('#c9ced6')),
    rect(x + 10 * s, y - 60 * s, 24 * s, 8 * s, 2 * s, fill(c.accent)),
    '</g>',
  ].join('');

const battery: Motif = (x, y, s, c) =>
  [
    rect(x - 130 * s, y - 170 * s, 260 * s, 170 * s, 14 * s, fill('#30343b')),
    rect(x - 130 * s, y - 170 * s, 260 * s, 40 * s, 10 * s, fill(c.main)),
    rect(x - 100 * s, y - 200 * s, 40 * s, 30 * s, 5 * s, fill('#d8462f')),
    rect(x + 60 * s, y - 200 * s, 40 * s, 30 * s, 5 * s, fill('#c9ced6')),
    rect(x - 95 * s, y - 95 * s, 34 * s, 10 * s, 2 * s, fill('#ffffff')),
    rect(x - 83 * s, y - 107 * s, 10 * s, 34 * s, 2 * s, fill('#ffffff')),
    rect(x + 62 * s, y - 95 * s, 34 * s, 10 * s, 2 * s, fill('#ffffff')),
    path('M -20 -110 L 10 -110 L -5 -80 L 20 -80 L -15 -35 L -5 -70 L -25 -70 Z', x, y, s, fill(c.accent)),
  ].join('');

const paint: Motif = (x, y, s, c) =>
  [
    rect(x - 90 * s, y - 180 * s, 180 * s, 180 * s, 12 * s, fill('#c9ced6')),
    ellipse(x, y - 180 * s, 90 * s, 18 * s, fill(c.main)),
    path('M -90 -180 L -90 -120 Q -75 -100 -60 -120 L -60 -150 Q -40 -130 -20 -150 L 20 -175 Z', x, y, s, fill(c.main)),
    rect(x - 70 * s, y - 110 * s, 140 * s, 70 * s, 6 * s, fill(c.light)),
    circle(x, y - 75 * s, 22 * s, fill(c.main)),
    path('M -90 -200 Q 0 -280 90 -200', x, y, s, stroke('#7b818a', 6 * s)),
    `<g transform="rotate(20 ${f(x + 170 * s)} ${f(y - 100 * s)})">`,
    rect(x + 155 * s, y - 210 * s, 30 * s, 110 * s, 10 * s, fill('#b07a43')),
    rect(x + 150 * s, y - 100 * s, 40 * s, 30 * s, 3 * s, fill('#c9ced6')),
    path('M -22 -70 L 22 -70 L 18 -10 Q 0 5 -18 -10 Z', x + 170 * s, y, s, fill(c.main)),
    '</g>',
  ].join('');

const plant: Motif = (x, y, s, c) =>
  [
    path('M -60 -100 L 60 -100 L 45 0 L -45 0 Z', x, y, s, fill('#c8663b')),
    rect(x - 68 * s, y - 112 * s, 136 * s, 22 * s, 5 * s, fill('#b2552d')),
    path('M 0 -110 Q -90 -160 -110 -260 Q -20 -230 0 -110 Z', x, y, s, fill('#4f9a45')),
    path('M 0 -110 Q 80 -170 100 -250 Q 10 -220 0 -110 Z', x, y, s, fill('#3d8a3c')),
    path('M 0 -110 Q -10 -220 10 -300 Q 50 -200 0 -110 Z', x, y, s, fill('#5bb050')),
    circle(x - 60 * s, y - 215 * s, 16 * s, fill(c.accent)),
    circle(x + 55 * s, y - 205 * s, 14 * s, fill(c.light)),
  ].join('');

const chair: Motif = (x, y, s, c) =>
  [
    rect(x - 80 * s, y - 300 * s, 160 * s, 160 * s, 24 * s, fill(c.main)),
    rect(x - 95 * s, y - 150 * s, 190 * s, 40 * s, 14 * s, fill(c.dark)),
    path('M -75 -110 L -90 0 M 75 -110 L 90 0 M -40 -110 L -45 -20 M 40 -110 L 45 -20', x, y, s, stroke('#b07a43', 12 * s)),
    rect(x - 50 * s, y - 260 * s, 100 * s, 14 * s, 7 * s, fill(c.light)),
  ].join('');

const lamp: Motif = (x, y, s, c) =>
  [
    ellipse(x, y - 8 * s, 60 * s, 12 * s, fill('#5f6670')),
    rect(x - 6 * s, y - 250 * s, 12 * s, 245 * s, 4 * s, fill('#5f6670')),
    path('M -70 -230 L 70 -230 L 45 -330 L -45 -330 Z', x, y, s, fill(c.accent)),
    ellipse(x, y - 230 * s, 70 * s, 10 * s, fill(c.light)),
  ].join('');

const bed: Motif = (x, y, s, c) =>
  [
    rect(x - 190 * s, y - 130 * s, 380 * s, 110 * s, 20 * s, fill(c.light)),
    ...[-120, -40, 40, 120].map((dx) => circle(x + dx * s, y - 75 * s, 6 * s, fill(c.main))),
    rect(x - 190 * s, y - 130 * s, 380 * s, 26 * s, 12 * s, fill(c.main)),
    rect(x - 170 * s, y - 180 * s, 120 * s, 55 * s, 26 * s, fill('#ffffff')),
    path('M -180 -20 L -180 0 M 180 -20 L 180 0', x, y, s, stroke('#b07a43', 14 * s)),
  ].join('');

const shirt: Motif = (x, y, s, c) =>
  [
    path('M 0 -300 Q -5 -330 15 -335 Q 35 -335 30 -312 M 0 -300 L -110 -255 M 0 -300 L 110 -255', x, y, s, stroke('#7b818a', 6 * s)),
    path(
      'M -45 -270 Q 0 -245 45 -270 L 120 -235 L 150 -160 L 105 -145 L 95 -180 L 95 -10 L -95 -10 L -95 -180 L -105 -145 L -150 -160 L -120 -235 Z',
      x,
      y,
      s,
      fill(c.main),
    ),
    path('M -45 -270 Q 0 -225 45 -270', x, y, s, stroke(c.dark, 8 * s)),
    ...[-40, 0, 40].map((dy) => rect(x - 95 * s, y + (dy - 120) * s, 190 * s, 10 * s, 0, fill(c.accent))),
  ].join('');

const gift: Motif = (x, y, s, c) =>
  [
    rect(x - 110 * s, y - 170 * s, 220 * s, 170 * s, 8 * s, fill(c.main)),
    rect(x - 125 * s, y - 205 * s, 250 * s, 45 * s, 8 * s, fill(c.dark)),
    rect(x - 16 * s, y - 205 * s, 32 * s, 205 * s, 0, fill(c.accent)),
    path('M 0 -205 Q -80 -290 -95 -230 Q -90 -200 0 -205 Z', x, y, s, fill(c.accent)),
    path('M 0 -205 Q 80 -290 95 -230 Q 90 -200 0 -205 Z', x, y, s, fill(c.accent)),
    circle(x, y - 207 * s, 16 * s, fill(c.light)),
  ].join('');

const screen: Motif = (x, y, s, c) =>
  [
    rect(x - 170 * s, y - 290 * s, 340 * s, 210 * s, 14 * s, fill('#2b2f36')),
    rect(x - 155 * s, y - 275 * s, 310 * s, 180 * s, 6 * s, fill(c.light)),
    circle(x - 60 * s, y - 200 * s, 40 * s, fill(c.accent)),
    path('M -155 -95 L -60 -170 L 10 -120 L 70 -160 L 155 -95 Z', x, y, s, fill(c.main)),
    rect(x - 14 * s, y - 82 * s, 28 * s, 60 * s, 4 * s, fill('#5f6670')),
    rect(x - 70 * s, y - 24 * s, 140 * s, 18 * s, 9 * s, fill('#5f6670')),
  ].join('');

const headphones: Motif = (x, y, s, c) =>
  [
    path('M -90 -60 L -90 -150 Q -90 -250 0 -250 Q 90 -250 90 -150 L 90 -60', x, y, s, stroke('#2b2f36', 20 * s)),
    rect(x - 120 * s, y - 120 * s, 55 * s, 110 * s, 24 * s, fill(c.main)),
    rect(x + 65 * s, y - 120 * s, 55 * s, 110 * s, 24 * s, fill(c.main)),
    rect(x - 110 * s, y - 105 * s, 20 * s, 80 * s, 10 * s, fill(c.accent)),
  ].join('');

const burger: Motif = (x, y, s, c) =>
  [
    path('M -130 -110 Q -130 -230 0 -230 Q 130 -230 130 -110 Z', x, y, s, fill('#e0a050')),
    ...[-70, -35, 0, 40, 75, -50, 20].map((dx, i) => ellipse(x + dx * s, y - (185 - (i % 2) * 30) * s, 7 * s, 4 * s, fill('#fff4d6'))),
    path('M -140 -110 Q -110 -85 -80 -110 Q -50 -85 -20 -110 Q 10 -85 40 -110 Q 70 -85 100 -110 Q 125 -88 140 -110 Z', x, y, s, fill('#5fb14e')),
    rect(x - 135 * s, y - 95 * s, 270 * s, 28 * s, 12 * s, fill(c.dark)),
    path('M -130 -70 L 130 -70 L 110 -50 L -110 -50 Z', x, y, s, fill('#f4c431')),
    path('M -130 -50 L 130 -50 Q 130 0 0 0 Q -130 0 -130 -50 Z', x, y, s, fill('#d89440')),
  ].join('');

const fries: Motif = (x, y, s, c) =>
  [
    ...[-45, -25, -5, 15, 35, -35, 25].map((dx, i) => rect(x + dx * s, y - (230 - (i % 3) * 15) * s, 16 * s, 130 * s, 3 * s, fill('#f6cc4a'))),
    path('M -75 -150 L 75 -150 L 60 0 L -60 0 Z', x, y, s, fill(c.accent)),
    path('M -75 -150 Q 0 -110 75 -150', x, y, s, stroke('#ffffff', 8 * s)),
  ].join('');

const parcel: Motif = (x, y, s, c) =>
  [
    path('M -150 -150 L 0 -200 L 150 -150 L 0 -100 Z', x, y, s, fill('#d9ad72')),
    path('M -150 -150 L 0 -100 L 0 0 L -150 -50 Z', x, y, s, fill('#c4935a')),
    path('M 150 -150 L 0 -100 L 0 0 L 150 -50 Z', x, y, s, fill('#b3834d')),
    path('M -75 -175 L 75 -125 L 75 -25', x, y, s, stroke(c.main, 22 * s)),
    path('M 25 -70 L 110 -98 L 110 -60 L 25 -32 Z', x, y, s, fill(c.light)),
    path('M 40 -60 L 95 -78', x, y, s, stroke(c.dark, 5 * s)),
  ].join('');

const fuel: Motif = (x, y, s, c) =>
  [
    rect(x - 80 * s, y - 290 * s, 160 * s, 290 * s, 16 * s, fill(c.main)),
    rect(x - 60 * s, y - 265 * s, 120 * s, 70 * s, 8 * s, fill(c.light)),
    rect(x - 45 * s, y - 245 * s, 60 * s, 12 * s, 3 * s, fill(c.dark)),
    rect(x - 45 * s, y - 225 * s, 40 * s, 12 * s, 3 * s, fill(c.dark)),
    rect(x - 95 * s, y - 20 * s, 190 * s, 20 * s, 6 * s, fill('#5f6670')),
    path('M 80 -170 Q 150 -170 150 -100 L 150 -40', x, y, s, stroke('#2b2f36', 12 * s)),
    rect(x + 95 * s, y - 230 * s, 40 * s, 70 * s, 8 * s, fill('#2b2f36')),
    circle(x, y - 130 * s, 30 * s, fill(c.accent)),
    path('M -8 -150 L 10 -150 L 0 -130 L 14 -130 L -8 -105 L -2 -125 L -14 -125 Z', x, y, s, fill('#ffffff')),
  ].join('');

const shoe: Motif = (x, y, s, c) =>
  [
    path('M -170 -20 L -170 -130 Q -150 -150 -110 -140 Q -60 -100 0 -110 Q 60 -120 110 -70 Q 170 -55 175 -20 Z', x, y, s, fill(c.main)),
    path('M -175 -20 L 180 -20 Q 185 0 160 0 L -175 0 Z', x, y, s, fill('#f4f1ea')),
    path('M -80 -110 L -40 -70 M -55 -120 L -15 -80 M -30 -122 L 10 -85', x, y, s, stroke('#ffffff', 7 * s)),
    path('M 20 -60 Q 80 -80 150 -40', x, y, s, stroke(c.accent, 12 * s)),
    rect(x - 170 * s, y - 140 * s, 30 * s, 90 * s, 10 * s, fill(c.dark)),
  ].join('');

const books: Motif = (x, y, s, c) => {
  const colours = [c.main, c.accent, c.dark, '#4f9a45', c.main];
  const rows = [
    { w: 250, h: 40, dx: -10 },
    { w: 230, h: 34, dx: 8 },
    { w: 260, h: 44, dx: -4 },
    { w: 210, h: 36, dx: 14 },
  ];
  let top = y;
  const parts: string[] = [];
  rows.forEach((row, i) => {
    top -= row.h * s;
    parts.push(rect(x + (row.dx - row.w / 2) * s, top, row.w * s, row.h * s, 5 * s, fill(colours[i])));
    parts.push(rect(x + (row.dx - row.w / 2 + 14) * s, top + 8 * s, (row.w - 28) * s, 6 * s, 3 * s, fill(c.light)));
  });
  parts.push(rect(x + 60 * s, top - 150 * s, 30 * s, 150 * s, 4 * s, fill(c.accent)));
  parts.push(rect(x + 95 * s, top - 130 * s, 26 * s, 130 * s, 4 * s, fill(c.dark)));
  return parts.join('');
};

/** How tall each item stands at scale 1, so a large one still fits under the picture's top. */
const HEIGHTS = new Map<Motif, number>([
  [coffee, 310],
  [bun, 110],
  [bread, 150],
  [groceries, 300],
  [fruit, 170],
  [wine, 310],
  [pills, 250],
  [tools, 280],
  [battery, 200],
  [paint, 260],
  [plant, 300],
  [chair, 300],
  [lamp, 330],
  [bed, 180],
  [shirt, 335],
  [gift, 290],
  [screen, 290],
  [headphones, 260],
  [burger, 230],
  [fries, 230],
  [parcel, 200],
  [fuel, 290],
  [shoe, 150],
  [books, 310],
]);
const fitting = (motif: Motif, scale: number, floor: number) => Math.min(scale, (floor - 40) / (HEIGHTS.get(motif) ?? 300));

/** The goods each demo business's pictures show: the first is drawn large, a second one beside it. */
const GOODS: Record<string, Motif[]> = {
  'ICA Maxi': [groceries, fruit],
  Coop: [fruit, groceries],
  Willys: [groceries, fruit],
  Hemköp: [groceries, bread],
  Lidl: [bread, coffee],
  'Apotek Hjärtat': [pills],
  Apoteket: [pills],
  'Kronans Apotek': [pills],
  'Clas Ohlson': [tools, battery],
  Biltema: [battery, tools],
  Bauhaus: [paint, plant],
  IKEA: [chair, lamp, plant],
  Jysk: [bed, lamp],
  'H&M': [shirt],
  ÅHLÉNS: [gift],
  Lindex: [shirt],
  KappAhl: [shirt],
  Elgiganten: [screen, headphones],
  NetOnNet: [screen, headphones],
  'Espresso House': [coffee, bun],
  "Wayne's Coffee": [bun, coffee],
  'Max Hamburgerrestauranger': [burger, fries],
  Pressbyrån: [coffee, bun],
  PostNord: [parcel],
  'Circle K': [fuel, coffee],
  Preem: [fuel],
  Systembolaget: [wine],
  Stadium: [shoe],
  Akademibokhandeln: [books],
};

/** Background, surface and item colours; each picture takes one set and one item palette. */
const SCENES = [
  { sky: '#fde8d7', table: '#e7b89a', deco: '#fbd3b8' },
  { sky: '#e3f0ff', table: '#a9c4e6', deco: '#cfe2fb' },
  { sky: '#e6f5e9', table: '#a8d3b0', deco: '#cdebd3' },
  { sky: '#fff4cc', table: '#e8cf7a', deco: '#ffe89a' },
  { sky: '#f1e6fb', table: '#c7aee3', deco: '#e2d2f5' },
  { sky: '#e0f4f4', table: '#9fd0cf', deco: '#c5e8e7' },
  { sky: '#fbe4ea', table: '#e6a9b9', deco: '#f7cdd8' },
  { sky: '#ecebe6', table: '#c2bca9', deco: '#dcd8cc' },
] as const;

const PALETTES: Colours[] = [
  { main: '#2f6fb0', accent: '#f2a33a', dark: '#1d3f66', light: '#ffffff' },
  { main: '#c0392b', accent: '#f7d154', dark: '#6e1f18', light: '#fff6e6' },
  { main: '#2e8b57', accent: '#f08a5d', dark: '#1d5637', light: '#f4fff8' },
  { main: '#7a4fb3', accent: '#4fc1b0', dark: '#3f2763', light: '#faf6ff' },
  { main: '#e07b39', accent: '#3a86c8', dark: '#7a3d14', light: '#fffaf3' },
  { main: '#d6457a', accent: '#ffd166', dark: '#7a1f42', light: '#fff5f9' },
  { main: '#1f8a99', accent: '#ff7b54', dark: '#0f4a52', light: '#f2fdff' },
  { main: '#5a6b2f', accent: '#e9c46a', dark: '#2f3a17', light: '#fbfbf2' },
];

/** Soft shapes behind the goods: dots, rings or stripes, so no two pictures look the same. */
function decoration(kind: number, colour: string, random: () => number): string {
  const parts: string[] = [];
  if (kind === 0) {
    for (let i = 0; i < 14; i += 1) parts.push(circle(random() * PICTURE_WIDTH, random() * 380, 8 + random() * 26, fill(colour)));
  } else if (kind === 1) {
    for (let i = 0; i < 4; i += 1) parts.push(circle(random() * PICTURE_WIDTH, 60 + random() * 300, 60 + random() * 90, stroke(colour, 18)));
  } else {
    const tilt = -20 + random() * 40;
    for (let i = -2; i < 12; i += 1) parts.push(rect(i * 110, -200, 48, 900, 0, `${fill(colour)} transform="rotate(${f(tilt)} 480 320)"`));
  }
  return parts.join('');
}

/** The SVG of one demo picture: `seed` picks the scene, palette, layout and which goods. */
export function pictureSvg(goods: readonly Motif[], seed: number): string {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const scene = pick(SCENES);
  const palette = pick(PALETTES);
  const horizon = 400 + Math.floor(random() * 60);
  const first = goods[Math.floor(random() * goods.length)];
  const others = goods.filter((g) => g !== first);
  const second = others.length > 0 && random() < 0.75 ? pick(others) : null;
  const scale = second ? 1.25 + random() * 0.15 : 1.5 + random() * 0.25;
  const floor = horizon + 60 + random() * 30;
  const mainX = second ? (random() < 0.5 ? 340 : 620) + (random() - 0.5) * 40 : 480 + (random() - 0.5) * 100;
  const mainScale = fitting(first, scale, floor);
  const items = [ellipse(mainX, floor, 170 * mainScale, 18, 'fill="#000" fill-opacity="0.12"'), first(mainX, floor, mainScale, palette)];
  if (second) {
    const secondX = mainX < 480 ? mainX + 300 + random() * 30 : mainX - 300 - random() * 30;
    const secondScale = fitting(second, 0.8 + random() * 0.12, floor);
    const secondFloor = floor + 20;
    items.unshift(ellipse(secondX, secondFloor, 120 * secondScale, 12, 'fill="#000" fill-opacity="0.12"'), second(secondX, secondFloor, secondScale, palette));
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PICTURE_WIDTH}" height="${PICTURE_HEIGHT}" viewBox="0 0 ${PICTURE_WIDTH} ${PICTURE_HEIGHT}">`,
    rect(0, 0, PICTURE_WIDTH, PICTURE_HEIGHT, 0, fill(scene.sky)),
    decoration(Math.floor(random() * 3), scene.deco, random),
    rect(0, horizon, PICTURE_WIDTH, PICTURE_HEIGHT - horizon, 0, fill(scene.table)),
    rect(0, horizon, PICTURE_WIDTH, 10, 0, 'fill="#000" fill-opacity="0.06"'),
    ...items,
    '</svg>',
  ].join('');
}

/** Every fourth demo comment goes without a picture (as many real ones do), as do suggestions. */
const withoutPicture = (index: number) => index % 4 === 3;

/**
 * The pictures the seed draws: one per demo comment that has one, keyed by its index in
 * demoComments. Each is distinct (its seed is the comment's index).
 */
export function demoPictures(): { commentIndex: number; svg: string }[] {
  return demoComments.flatMap((comment, commentIndex) => {
    const goods = GOODS[comment.business];
    if (!goods || withoutPicture(commentIndex)) return [];
    return [{ commentIndex, svg: pictureSvg(goods, 7919 * (commentIndex + 1)) }];
  });
}

/** The businesses (by title) the seed can draw goods for; the seed test checks the directory against it. */
export const drawnBusinesses = Object.keys(GOODS);
