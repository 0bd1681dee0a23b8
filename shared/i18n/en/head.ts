import type { Widen } from '../types';
import type { head as sv } from '../sv/head';

export const head: Widen<typeof sv> = {
  home: {
    description: 'Read what others think of the everyday stores and services of Sweden, rate them and share your own experiences on Recensera.',
  },
  directory: {
    title: 'All stores – ratings and reviews',
    description: 'Find grocery stores, pharmacies, clothing stores and other everyday stores in Sweden and see what their customers think.',
  },
  about: { title: 'About Recensera', description: 'What Recensera is, who runs it and how ratings and reviews work.' },
  contact: { title: 'Contact us', description: 'A question, a suggestion or something that is not right? Write to Recensera.' },
  terms: { title: 'Terms of use', description: 'The terms for using Recensera and writing reviews.' },
  policy: { title: 'Privacy policy', description: 'How Recensera handles your personal data and cookies.' },
  login: { title: 'Log in', description: 'Log in to Recensera to rate, write reviews and keep favourites.' },
  registration: { title: 'Create an account', description: 'Create an account on Recensera and share your experiences of stores and services.' },
  notFound: { title: 'Page not found', description: 'The page you are looking for is not on Recensera.' },
  gone: { title: 'The post has been removed', description: 'The post you are looking for has been removed by a moderator.' },
  other: { title: 'Recensera', description: 'Recensera – ratings and reviews of everyday stores and services in Sweden.' },
  business: {
    title: (name: string, raters: number, count: string) =>
      raters === 0 ? `${name} – reviews and ratings` : `${name} – reviews and ratings from ${count} ${raters === 1 ? 'customer' : 'customers'}`,
    rated: (average: string, raters: number, count: string) => `Rated ${average} out of 5 by ${count} ${raters === 1 ? 'customer' : 'customers'}.`,
    notRated: 'No ratings yet – be the first to rate.',
    suggestionBox: 'Add New',
    imageAlt: (name: string) => `Picture of ${name}`,
  },
  comment: {
    title: (author: string, business: string, excerpt: string) => `${author} on ${business}: “${excerpt}”`,
    description: (author: string, business: string, excerpt: string) => `${author} on ${business} at Recensera: “${excerpt}”`,
    imageAlt: (author: string, business: string) => `Picture from ${author} of ${business}`,
  },
};
