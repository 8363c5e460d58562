// express-cluster: the same app, one worker process per core (node:cluster),
// since one Node process runs its JavaScript on one thread. The workers
// share the listening socket; the primary only supervises.
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from '@crudbench/node-base/config.js';
import { run } from './server.js';

if (cluster.isPrimary) {
  await primary(process.env);
} else {
  const controller = new AbortController();
  // The primary decides when to stop: it sends SIGTERM to each worker.
  process.once('SIGTERM', () => controller.abort());
  process.once('SIGINT', () => {});
  run(process.env, { signal: controller.signal }).then(
    () => process.exit(0),
    (err) => {
      console.error(err instanceof ConfigError ? err.message : err);
      process.exit(1);
    },
  );
}

async function primary(env) {
  let config;
  try {
    config = loadConfig(env, ':8084');
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
  const workers = Number(env.WORKERS) > 0 ? Number(env.WORKERS) : availableParallelism();
  // DB_MAX_CONNS is the whole app's share of the database, as for every
  // other app: the workers split it rather than each taking all of it.
  const perWorker = Math.max(1, Math.floor(config.dbMaxConns / workers));
  const workerEnv = { DB_MAX_CONNS: String(perWorker), METRICS_ADDR: '', DEBUG_ADDR: '' };
  // DEBUG_ADDR goes to the first worker only: V8 profiles one thread, and
  // the workers run the same code under the same share of the load, so one
  // worker's profile says where the app's CPU goes. The primary, which only
  // supervises and hands out connections, is not profiled.
  const envs = new Map();
  const fork = (env) => envs.set(cluster.fork(env), env);
  let stopping = false;
  for (let i = 0; i < workers; i++) fork(i === 0 ? { ...workerEnv, DEBUG_ADDR: env.DEBUG_ADDR ?? '' } : workerEnv);
  cluster.on('exit', (worker, code, signal) => {
    const env = envs.get(worker);
    envs.delete(worker);
    if (stopping) return;
    // A worker that dies is replaced, so the app keeps its capacity.
    console.error(JSON.stringify({ level: 'ERROR', time: new Date().toISOString(), msg: 'worker exited', code, signal }));
    fork(env);
  });
  let metricsAddr = '';
  if (config.metricsAddr) {
    const { serveClusterMetrics } = await import('./metrics.js');
    metricsAddr = `:${(await serveClusterMetrics(config.metricsAddr)).address().port}`;
  }
  console.log(
    JSON.stringify({ level: 'INFO', time: new Date().toISOString(), msg: 'cluster started', workers, metrics_addr: metricsAddr }),
  );
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
    const exits = Object.values(cluster.workers).map((w) => new Promise((resolve) => w.once('exit', resolve)));
    Promise.all(exits).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
