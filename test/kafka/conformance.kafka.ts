// The Bus conformance suite on a real Kafka broker, once with plain JSON payloads and once in
// the schema registry's wire format (against the registry test double). Each test gets its
// own namespace: a topic, group and subject prefix, so the fixture catalogue's fixed names
// never meet an earlier test's.
import { before, after } from 'node:test';
import { busConformance, namespaceOf, TOPICS, type ConformanceEnvironment } from '../bus/conformance.ts';
import type { BusConfig } from '../../lib/bus/open.ts';
import { BROKERS, deleteNamespace, requireBroker } from './broker.ts';
import { startRegistryDouble, type RegistryDouble } from './registry-double.ts';
import { tempDir } from '../support/temp.ts';

let registry: RegistryDouble;
before(async () => {
  await requireBroker();
  registry = await startRegistryDouble();
});
after(() => registry?.close());

let namespaces = 0;

function kafkaEnvironment(name: string, withRegistry: boolean): ConformanceEnvironment {
  return {
    name,
    async fresh() {
      const topicPrefix = `test-${process.pid}-${Date.now().toString(36)}-${++namespaces}.`;
      const config: BusConfig = {
        transport: 'kafka',
        dataDir: tempDir('labld-kafka-'),
        topicsFile: TOPICS,
        kafka: {
          brokers: BROKERS,
          topicPrefix,
          // A short session lets the group notice a killed member within the suite's waits.
          sessionTimeoutMs: 6_000,
          heartbeatIntervalMs: 500,
          registryUrl: withRegistry ? registry.url : undefined,
        },
      };
      return namespaceOf(config, () => deleteNamespace(topicPrefix));
    },
  };
}

busConformance(kafkaEnvironment(`kafka at ${BROKERS.join(',')}`, false));
busConformance(kafkaEnvironment(`kafka at ${BROKERS.join(',')}, schema registry wire format`, true));
