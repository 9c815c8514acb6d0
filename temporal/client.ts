/** The Temporal client side (schedules:apply, ops): address and namespace come from the configuration only. */
import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config/index.js';

export interface TemporalClient {
  client: Client;
  close(): Promise<void>;
}

export async function connectTemporal(
  config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE'>,
): Promise<TemporalClient> {
  if (!config.TEMPORAL_ADDRESS) throw new Error('TEMPORAL_ADDRESS is not set (workflows run in-process then)');
  const address = config.TEMPORAL_ADDRESS;
  const connection = await Connection.connect({ address }).catch((e: unknown) => {
    throw new Error(`Temporal at ${address} is unreachable: ${e instanceof Error ? e.message : String(e)}`);
  });
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  return { client, close: () => connection.close() };
}
