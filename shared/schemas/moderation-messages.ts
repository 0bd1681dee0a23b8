// Kept free of zod: the client's first chunk imports every message, not the schemas.
/** Server messages of reports and moderation: key → English text. */
export const moderationMessages = {
  reportLoginRequired: 'Please log in to report a post.',
  reportReasonInvalid: 'Choose a reason for your report.',
  reportNoteTooLong: 'The note can be at most 500 characters long.',
  reportOwnPost: 'You cannot report your own post.',
  reportThanks: 'Thank you! A moderator will look at it.',
  reportAlreadySent: 'You have already reported this post.',
  reportNotFound: 'There are no open reports of this post.',
  reportResolved: 'The reports were resolved.',
  spamNewAccountLinks: 'New accounts cannot post links during their first 24 hours.',
  spamNewAccountPosts: 'New accounts can post at most 5 times during their first 24 hours. Please come back tomorrow.',
  spamTooManyLinks: 'A post can contain at most 2 links.',
  spamRepeated: 'You already posted this text in the last 24 hours.',
  postRemoved: 'A moderator removed this post; it cannot be edited.',
  postRemovedNoReplies: 'A moderator removed this post; it takes no new replies.',
  postsRemoved: "The user's posts were removed.",
  ratingBurstNotFound: 'There is no open rating burst with this id.',
  ratingBurstDismissed: 'The rating burst was dismissed.',
  unsubscribeLinkInvalid: 'This unsubscribe link is not valid.',
  ratingBurstAccepted: 'The ratings were accepted and now count.',
  ratingBurstRejected: 'The ratings were rejected and stay out of every figure.',
} as const;
