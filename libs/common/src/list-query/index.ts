export * from './list-query.decorator';
export * from './list-spec';
export * from './parse-list-query';
export { pageProblem, resultsPerPageProblem } from './list-query.dto';
