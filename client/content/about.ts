import type { Language } from '../i18n';

type Point = { readonly title: string; readonly text: string };

export type AboutContent = {
  readonly eyebrow: string;
  readonly title: string;
  readonly lead: string;
  readonly how: { readonly title: string; readonly steps: readonly [Point, Point, Point, Point] };
  readonly community: { readonly title: string; readonly paragraphs: readonly string[] };
  readonly promises: { readonly title: string; readonly items: readonly [Point, Point, Point, Point] };
  readonly cta: { readonly title: string; readonly text: string; readonly browse: string; readonly register: string; readonly contact: string };
};

const sv: AboutContent = {
  eyebrow: 'Om Recensera',
  title: 'Ärliga omdömen om vardagens företag',
  lead: 'Recensera samlar erfarenheter från riktiga kunder av de ställen vi alla besöker: mataffären, apoteket, järnhandeln, caféet på hörnet och bensinmacken längs vägen. Inga betalda topplistor – bara grannar som berättar hur det faktiskt var.',
  how: {
    title: 'Så fungerar det',
    steps: [
      { title: 'Skapa ett konto', text: 'Registrera dig med e-post eller Google. Det är gratis, och du bekräftar bara din e-postadress.' },
      { title: 'Hitta företaget', text: 'Sök i katalogen bland butiker, kedjor och tjänster runt om i Sverige – från Malmö till Umeå.' },
      { title: 'Dela din erfarenhet', text: 'Sätt ett betyg från en till fem stjärnor, skriv vad du tyckte, ange orten och lägg gärna till en bild.' },
      { title: 'Hjälp andra', text: 'Svara på kommentarer och betygsätt andras inlägg, så lyfts de mest hjälpsamma omdömena fram.' },
    ],
  },
  community: {
    title: 'Drivs av lokalsamhället',
    paragraphs: [
      'Recensera är inget globalt bolag med annonsintäkter. Webbplatsen körs av en förening, en grannskapsgrupp eller ett gäng eldsjälar på sin egen server, och varje installation är sin egen gemenskap.',
      'Det betyder att omdömena och era uppgifter stannar hos er. Administratörerna är människor från samma gemenskap, som modererar efter gemensamma villkor och tar bort det som inte hör hemma här.',
    ],
  },
  promises: {
    title: 'Det här kan du lita på',
    items: [
      { title: 'Inga annonser', text: 'Ingen kan köpa sig ett bättre betyg eller en bättre placering.' },
      { title: 'Ingen spårning', text: 'Vi använder bara de cookies som behövs för inloggning och språkval.' },
      { title: 'Begripliga betyg', text: 'Ett företags betyg är medelvärdet av användarnas betyg, och du ser alltid hur många som har röstat.' },
      { title: 'På svenska och engelska', text: 'Hela webbplatsen finns på båda språken, så alla i kvarteret kan vara med.' },
    ],
  },
  cta: {
    title: 'Var med och gör vardagen lite bättre',
    text: 'Ditt omdöme hjälper grannar att välja rätt – och företagen att bli bättre.',
    browse: 'Utforska företagen',
    register: 'Skapa ett konto',
    contact: 'Kontakta oss',
  },
};

const en: AboutContent = {
  eyebrow: 'About Recensera',
  title: 'Honest reviews of everyday businesses',
  lead: 'Recensera gathers real customers’ experiences of the places we all visit: the grocery store, the pharmacy, the hardware store, the café on the corner and the petrol station down the road. No paid top lists – just neighbours telling you how it really was.',
  how: {
    title: 'How it works',
    steps: [
      { title: 'Create an account', text: 'Sign up with your e-mail or Google. It is free; you just confirm your e-mail address.' },
      { title: 'Find the business', text: 'Search the directory of stores, chains and services all over Sweden – from Malmö to Umeå.' },
      { title: 'Share your experience', text: 'Give one to five stars, write what you thought, name the town and add a picture if you like.' },
      { title: 'Help others', text: 'Reply to comments and rate other people’s posts, so the most helpful reviews rise to the top.' },
    ],
  },
  community: {
    title: 'Run by the community',
    paragraphs: [
      'Recensera is not a global company living off advertising. The site is run by an association, a neighbourhood group or a handful of enthusiasts on their own server, and every installation is its own community.',
      'That means the reviews and your data stay with you. The administrators are people from the same community, who moderate by shared terms and remove what does not belong here.',
    ],
  },
  promises: {
    title: 'What you can count on',
    items: [
      { title: 'No advertising', text: 'Nobody can buy a better rating or a better place in the list.' },
      { title: 'No tracking', text: 'We only use the cookies needed for logging in and choosing a language.' },
      { title: 'Ratings you can follow', text: 'A business’s rating is the average of its users’ ratings, and you always see how many have voted.' },
      { title: 'In Swedish and English', text: 'The whole site exists in both languages, so everyone in the neighbourhood can take part.' },
    ],
  },
  cta: {
    title: 'Help make everyday life a little better',
    text: 'Your review helps neighbours choose well – and helps businesses improve.',
    browse: 'Explore the businesses',
    register: 'Create an account',
    contact: 'Contact us',
  },
};

export const about: Record<Language, AboutContent> = { sv, en };
