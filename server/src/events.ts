import { EventEmitter } from 'node:events';
import type { SendboxEvent } from '../../shared/events.js';

/**
 * The event bus between the domain code and its transports (SSE, webhooks).
 * Storage never publishes: the code that commits a change does, after the commit.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every SSE client and every wait request is a listener.
    this.emitter.setMaxListeners(0);
  }

  publish(event: SendboxEvent): void {
    this.emitter.emit('event', event);
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: (event: SendboxEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  get listenerCount(): number {
    return this.emitter.listenerCount('event');
  }
}
