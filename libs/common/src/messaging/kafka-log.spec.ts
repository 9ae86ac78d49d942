/**
 * kafkajs's log lines through the bus's logCreator (kafkajs's public option), written by kafkajs's own logger
 * as its producer and connections write them: warnings and errors reach the service's log as warnings, the
 * protocol lines only at debug level, the idempotent producer's retry warning not at all.
 */
import { Kafka, logLevel } from 'kafkajs';
import { kafkaLogCreator } from './kafka-message-bus';

function kafkaLogger() {
  const logger = { warn: jest.fn(), debug: jest.fn() };
  const kafka = new Kafka({ clientId: 'spec', brokers: ['127.0.0.1:1'], logLevel: logLevel.INFO, logCreator: kafkaLogCreator(logger) });
  return { logger, kafka: kafka.logger() };
}

it('drops the idempotent producer warning about limited retries', () => {
  const { logger, kafka } = kafkaLogger();
  kafka.namespace('Producer').warn('Limiting retries for the idempotent producer may invalidate EoS guarantees');
  expect(logger.warn).not.toHaveBeenCalled();
  expect(logger.debug).not.toHaveBeenCalled();
});

it('writes a broker error response to one request (which kafkajs retries) at debug level only', () => {
  const { logger, kafka } = kafkaLogger();
  kafka.namespace('Connection').error('Response GroupCoordinator(key: 10, version: 2)', {
    broker: '127.0.0.1:9092',
    clientId: 'spec',
    error: 'The group coordinator is not available',
    correlationId: 3,
    size: 30,
  });
  expect(logger.warn).not.toHaveBeenCalled();
  expect(logger.debug).toHaveBeenCalledWith(
    'Response GroupCoordinator(key: 10, version: 2) (127.0.0.1:9092): The group coordinator is not available',
  );
});

it('writes errors and other warnings as warnings, info as debug', () => {
  const { logger, kafka } = kafkaLogger();
  kafka.namespace('BrokerPool').error('Failed to connect to seed broker, trying another broker from the list', { retryCount: 0 });
  kafka.namespace('Consumer').warn('The group is rebalancing, re-joining', { groupId: 'g' });
  kafka.namespace('Consumer').info('Starting', { groupId: 'g' });
  expect(logger.warn.mock.calls).toEqual([
    ['Failed to connect to seed broker, trying another broker from the list'],
    ['The group is rebalancing, re-joining'],
  ]);
  expect(logger.debug.mock.calls).toEqual([['Starting']]);
});
