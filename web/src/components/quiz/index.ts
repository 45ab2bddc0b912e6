export { QuestionReview, type QuestionReviewProps } from './question-review';
