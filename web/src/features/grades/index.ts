export {
  AudioQuizGradesDashboardPage,
  TextQuizGradesDashboardPage,
} from './components/grades-dashboard-page';
export { MyQuizResults } from './components/my-quiz-results';
export { QuizGradesSection } from './components/quiz-grades-section';
