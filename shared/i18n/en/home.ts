import type { Widen } from '../types';
import type { home as sv } from '../sv/home';

export const home: Widen<typeof sv> = {
  welcome: {
    eyebrow: 'Reviews from real customers',
    title: 'Welcome to Recensera',
    browseAll: 'See all stores',
    join: 'Create a free account',
  },
  chooser: {
    label: 'Find a store',
    placeholder: 'Type or choose a store',
    hint: 'Type part of the name or browse every store on Recensera.',
    openList: 'Show the list of stores',
    clear: 'Clear',
    noMatch: 'No store matches what you typed',
    none: 'There are no stores yet',
    loading: 'Loading stores...',
    error: 'The stores could not be loaded right now.',
    /** The last option when the search finds more than the list shows: the directory with the same search. */
    allMatches: (count: string) => `Show all ${count} matches in the directory`,
    /** The same without a search: the directory. */
    allStores: (count: string) => `Show all ${count} stores in the directory`,
  },
  carousel: {
    heading: 'Stores on Recensera',
    roleDescription: 'carousel',
    slideRoleDescription: 'slide',
    slideLabel: (n: number, total: number) => `${n} of ${total}`,
    previous: 'Previous stores',
    next: 'Next stores',
    pause: 'Pause the slideshow',
    play: 'Play the slideshow',
    empty: 'Stores will appear here as soon as the first ones have been added.',
  },
  trust: {
    heading: 'Why Trust Us',
    mission:
      'Our mission is simple: to make everyday choices easier with honest feedback from people who have actually been there. No bought reviews and no advertising copy – just experiences from our community.',
    realFeedback: {
      title: 'Real feedback',
      text: 'Every comment is written by a registered user with a confirmed e-mail address, and you can see who wrote it.',
    },
    dailyInsights: {
      title: 'Daily insights',
      text: 'The community shares new experiences all the time, so you learn what a store is like today – not years ago.',
    },
    communityPicks: {
      title: 'Community picks',
      text: "Ratings are the average of users' votes, and the most appreciated posts are lifted up by the users themselves.",
    },
    claimText: (n: number) =>
      n === 1 ? 'store or service is already here – and more are on the way.' : "of Sweden's stores and services are already here – and more are on the way.",
    claimLoading: 'Counting the stores...',
    claimNone: 'Recensera has only just opened. The first stores will be added shortly – do come back soon!',
  },
  features: {
    heading: 'What you can do',
    stars: {
      title: 'Rate stores',
      text: 'Give a store one to five stars. If you rate it again, the new rating replaces the old one.',
    },
    photos: {
      title: 'Comment with photos',
      text: 'Tell others about your visit, say which branch it was and add a photo if you like.',
    },
    reactions: {
      title: 'React to posts',
      text: "React to other people's comments and replies with one of five emoji, from angry to delighted. Reactions are apart from the stars you give a store.",
    },
    replies: {
      title: 'Reply and discuss',
      text: "Ask follow-up questions, share tips and reply to other people's comments.",
    },
    favorites: {
      title: 'Keep favourites',
      text: 'Gather the stores you like in one place and find your way back to them quickly.',
    },
    search: {
      title: 'Search by location',
      text: 'Find comments about your own branch by searching for a town, a text or a name.',
    },
  },
  faq: {
    heading: 'Help and frequently asked questions',
    howToReview: {
      question: 'How do I leave a review?',
      answer: 'Create an account and confirm your e-mail address. Then pick a business, write your feedback and add photos from your visit if you like.',
    },
    editReview: {
      question: 'Can I edit or delete my review?',
      answer: 'Yes. You can edit or delete your own comments and replies at any time.',
    },
    ratings: {
      question: 'How are ratings calculated?',
      answer: 'A business rating is the average of the scores users have given it.',
    },
    rateOthers: {
      question: "Can I rate other users' posts?",
      answer:
        "Yes. Users react to each other's comments and replies with five emoji (reactions), so the most helpful posts stand out. Reactions do not count towards a store's rating.",
    },
  },
};
