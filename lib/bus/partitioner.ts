// Key → partition. The embedded bus uses Kafka's own default partitioner (murmur2, as in the
// Java client, taken from kafkajs) so a key lands on the same partition number on both
// transports; keyless messages go round-robin.
import kafkajs from 'kafkajs';

const murmur2 = kafkajs.Partitioners.DefaultPartitioner();

export function partitionFor(topic: string, key: string | null, partitions: number, counter: number): number {
  if (key === null) return counter % partitions;
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
    partitionId,
    leader: 0,
  }));
  return murmur2({
    topic,
    partitionMetadata: partitionMetadata as never,
    message: { key, value: null },
  });
}
