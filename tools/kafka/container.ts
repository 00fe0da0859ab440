// A single-node Kafka broker (KRaft) in a Docker container, through testcontainers: the path
// `with-broker.sh` takes on machines with a Docker engine (a developer laptop). Prints
// `KAFKA_BROKERS=<host:port>` once the broker serves, then holds it until stdin closes or a
// SIGTERM/SIGINT arrives, and removes the container. CI machines have no engine; there
// `broker.sh` runs the broker from Maven Central jars instead.
import { KafkaContainer } from '@testcontainers/kafka';

const IMAGE = process.env['KAFKA_IMAGE'] ?? 'confluentinc/cp-kafka:7.9.1';
const PLAINTEXT_PORT = 9093; // the module's listener for clients outside the container

const container = await new KafkaContainer(IMAGE).withKraft().start();
console.log(`KAFKA_BROKERS=${container.getHost()}:${container.getMappedPort(PLAINTEXT_PORT)}`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await container.stop();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
