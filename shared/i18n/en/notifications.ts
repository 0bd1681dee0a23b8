import { threadCountText } from '../../schemas/notification-constants';

import type { Widen } from '../types';
import type { notifications as sv } from '../sv/notifications';

export const notifications: Widen<typeof sv> = {
  bell: (n: number) => (n === 0 ? 'Notifications' : `Notifications: ${n} unread`),
  menuItem: 'Notifications',
  unreadSuffix: 'unread',
  title: 'Notifications',
  intro: 'Replies, reactions and decisions about your posts, suggestions and claims, newest first.',
  loading: 'Loading notifications …',
  loadingMore: 'Loading more …',
  loadMore: 'Show more',
  error: 'The notifications could not be loaded.',
  empty: 'No notifications yet. When someone replies to or reacts to what you wrote, it shows here.',
  markAllRead: 'Mark all as read',
  unread: 'Unread',
  loginRequired: 'Log in to see your notifications.',
  logIn: 'Log in',
  someone: 'Someone',
  text: {
    reply: (who: string, n: number, place: string) =>
      n === 1 ? `${who} replied to your review of ${place}` : `${threadCountText(n)} new replies to your review of ${place}, the latest from ${who}`,
    threadReply: (who: string, n: number, place: string) =>
      n === 1
        ? `${who} replied in a thread you take part in about ${place}`
        : `${threadCountText(n)} new replies in a thread you take part in about ${place}, the latest from ${who}`,
    reaction: (who: string, n: number, place: string) =>
      n === 1 ? `${who} reacted to your post about ${place}` : `${n} people reacted to your post about ${place}`,
    favoriteReview: (who: string, place: string) => `${who} wrote a new review of your favourite ${place}`,
    ownerReply: (_who: string, place: string) => `${place} replied to your review`,
    hidden: (place: string) => `Your post about ${place} was hidden after reports and is being reviewed by a moderator`,
    removed: (place: string) => `A moderator removed your post about ${place}`,
    restored: (place: string) => `Your post about ${place} is shown again after review`,
    ownerReplyHidden: (place: string) => `The answer from ${place} to a review was hidden after reports and is being reviewed by a moderator`,
    ownerReplyRemoved: (place: string) => `A moderator removed the answer from ${place} to a review`,
    ownerReplyRestored: (place: string) => `The answer from ${place} to a review is shown again after review`,
    reportRemoved: (place: string) => `Thank you! The post you reported about ${place} has been removed`,
    reportDismissed: (place: string) => `The post you reported about ${place} was reviewed and stays`,
    suggestionApproved: (place: string) => `Your suggestion ${place} was approved and is now in the directory`,
    suggestionRejected: (place: string) => `Your suggestion ${place} was not approved`,
    claimApproved: (place: string) => `You now own ${place} and can answer its reviews`,
    claimRejected: (place: string) => `Your claim to own ${place} was not approved`,
  },
  reason: (reason: string) => `Reason: ${reason}`,
  settings: {
    title: 'E-mail about notifications',
    hint: 'Choose for each kind: at once (at most one mail per thread an hour), a summary once a day, or none. You get no mail before you have posted something.',
    categories: {
      replies: 'Replies to you and in your threads',
      reactions: 'Reactions to your posts',
      reviews: 'New reviews of your favourites',
      moderation: 'Moderation of your posts and reports, decisions on your suggestions and claims',
    },
    choices: { instant: 'At once', daily: 'Once a day', off: 'Off' },
  },
};
