import { Router } from 'express';
import type { SendboxEvent } from '../../../../shared/events.js';
import type { Services } from '../../context.js';
import { methodNotAllowed } from '../errors.js';
import { queryTeam } from './query.js';

/**
 * `GET /sandbox/events` (CONTRACT §8): Server-Sent Events, one per bus event, as
 * `event: <type>` and `data: {"type","data"}`. `?team_id=` keeps one team's events
 * (clearing every team is everyone's news). Comments keep proxies and idle timers from
 * closing the stream; the stream ends at shutdown.
 */
export const HEARTBEAT_MS = 15_000;
// A client this far behind is not reading: drop it, EventSource reconnects by itself.
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** Every event names its team; clearing all teams names none. */
const teamOf = (event: SendboxEvent): string | null => event.data.team_id;

// One serialization per event, however many streams carry it.
const frames = new WeakMap<SendboxEvent, string>();
function frameOf(event: SendboxEvent): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    const payload = 'change' in event && event.change ? { type: event.type, data: event.data, change: event.change } : { type: event.type, data: event.data };
    frame = `event: ${event.type}\ndata: ${JSON.stringify(payload)}\n\n`;
    frames.set(event, frame);
  }
  return frame;
}

export function sandboxEventsRouter(services: Services): Router {
  const router = Router();
  const { events, stopping } = services;

  router.get('/', (req, res) => {
    const teamId = queryTeam(req) ?? null;
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.write('retry: 2000\n: connected\n\n');

    // Writes made in one turn of the event loop (a lifecycle tick announces hundreds of
    // changes at once) leave in one syscall: corked now, uncorked on the next tick.
    let corked = false;
    const write = (chunk: string) => {
      if (res.writableLength > MAX_BUFFERED_BYTES) return end();
      if (!corked) {
        corked = true;
        res.cork();
        process.nextTick(() => {
          corked = false;
          res.uncork();
        });
      }
      res.write(chunk);
    };
    const unsubscribe = events.subscribe((event) => {
      const team = teamOf(event);
      if (teamId !== null && team !== null && team !== teamId) return;
      write(frameOf(event));
    });
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    let ended = false;
    function end() {
      if (ended) return;
      ended = true;
      unsubscribe();
      clearInterval(heartbeat);
      stopping.removeEventListener('abort', end);
      res.end();
    }
    stopping.addEventListener('abort', end);
    res.on('close', end);
    if (stopping.aborted) end();
  });
  router.all('/', methodNotAllowed(['GET']));
  return router;
}
