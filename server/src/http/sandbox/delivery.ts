import { Router } from 'express';
import type { DeliveryState } from '../../../../shared/sandbox.js';
import type { Services } from '../../context.js';
import { methodNotAllowed } from '../errors.js';

/**
 * /sandbox/delivery (CONTRACT §6): the delivery clock. While paused, new emails still
 * reach `queued` and wait there; resuming delivers everything that came due.
 */
export function sandboxDeliveryRouter(services: Services): Router {
  const router = Router();
  const { lifecycle, logger } = services;
  const state = (): DeliveryState => ({ paused: lifecycle.isPaused });

  router.get('/', (_req, res) => {
    res.json({ status: 200, message: lifecycle.isPaused ? 'Delivery is paused' : 'Delivery is running', data: state() });
  });
  router.all('/', methodNotAllowed(['GET']));
  router.post('/pause', (_req, res) => {
    if (!lifecycle.isPaused) logger.child('sim').info('delivery paused');
    lifecycle.pause();
    res.json({ status: 200, message: 'Delivery paused', data: state() });
  });
  router.all('/pause', methodNotAllowed(['POST']));
  router.post('/resume', (_req, res) => {
    if (lifecycle.isPaused) logger.child('sim').info('delivery resumed');
    lifecycle.resume();
    res.json({ status: 200, message: 'Delivery resumed', data: state() });
  });
  router.all('/resume', methodNotAllowed(['POST']));
  return router;
}
