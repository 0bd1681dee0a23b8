export const questions = ['howToReview', 'editReview', 'ratings', 'rateOthers'] as const;
