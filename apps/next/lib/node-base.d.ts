// @crudbench/node-base is JavaScript without declarations: its modules
// are typed as any here; what the route handlers rely on is in deps.ts.
declare module '@crudbench/node-base/*';
