export * from './users';
export * from './images';
export * from './businesses';
export * from './comments';
export * from './moderation';
export * from './upgrade-tasks';
export * from './notifications';
export * from './site';
