export const questions = ['howToReview', 'editReview', 'ratings', 'rateOthers'] as const;
export type Question = (typeof questions)[number];
