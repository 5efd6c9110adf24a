/** A face descriptor: 128 numbers from face-api's recognition net; near ones are the same person. */
export const DESCRIPTOR_LENGTH = 128;

/** The stored form: 128 float32, little-endian (512 bytes), the same on SQLite and PostgreSQL. */
export function descriptorToBytes(descriptor: ArrayLike<number>): Buffer {
  if (descriptor.length !== DESCRIPTOR_LENGTH) throw new Error(`A face descriptor has ${DESCRIPTOR_LENGTH} numbers, not ${descriptor.length}.`);
  const bytes = Buffer.alloc(DESCRIPTOR_LENGTH * 4);
  for (let index = 0; index < DESCRIPTOR_LENGTH; index += 1) bytes.writeFloatLE(descriptor[index], index * 4);
  return bytes;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function descriptorFromBytes(bytes: Uint8Array): Float32Array {
  // A copy viewed as float32 where the machine is little-endian (every one this runs on): "is this
  // X?" reads a centroid per named person, and this is 10x faster than reading each float.
  if (LITTLE_ENDIAN && bytes.byteLength === DESCRIPTOR_LENGTH * 4) return new Float32Array(new Uint8Array(bytes).buffer);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const descriptor = new Float32Array(DESCRIPTOR_LENGTH);
  for (let index = 0; index < DESCRIPTOR_LENGTH; index += 1) descriptor[index] = buffer.readFloatLE(index * 4);
  return descriptor;
}

/** Euclidean distance, face-api's measure (its own examples take 0.6 as "same person"). */
export function descriptorDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let index = 0; index < DESCRIPTOR_LENGTH; index += 1) {
    const difference = a[index] - b[index];
    sum += difference * difference;
  }
  return Math.sqrt(sum);
}
