import type { Widen } from '../types';
import type { profiles as sv } from '../sv/profiles';

export const profiles: Widen<typeof sv> = {
  title: (name: string) => `${name}'s profile`,
  avatarAlt: (name: string) => `Profile picture of ${name}`,
  memberSince: (date: string) => `Member since ${date}`,
  counts: 'Activity',
  reviews: (n: number) => (n === 1 ? '1 review' : `${n} reviews`),
  replies: (n: number) => (n === 1 ? '1 reply' : `${n} replies`),
  reactions: (n: number) => (n === 1 ? '1 reaction' : `${n} reactions`),
  reviewsTitle: 'Reviews',
  empty: 'No reviews yet.',
  stars: (n: number) => `${n} out of 5 stars`,
  photoAlt: (place: string) => `Photo from ${place}`,
  readMore: 'Read the whole review',
  loading: 'Loading the profile …',
  loadingMore: 'Loading more …',
  loadMore: 'Show more',
  error: 'The profile could not be loaded.',
  yours: 'This is your public profile: how others see you.',
  editName: 'Change name and picture',
};
