/** Protobuf messages written with pbf's writer, for tests and benchmarks that make their own feeds. */
import { PbfWriter } from 'pbf';

export type Write = (pbf: PbfWriter) => void;

/** The bytes of the message `write` writes. */
export function encode(write: Write): Uint8Array {
  const pbf = new PbfWriter();
  write(pbf);
  return pbf.finish().slice();
}

/** An embedded message field: field `tag` holding what `write` writes. */
export const message = (pbf: PbfWriter, tag: number, write: Write) => pbf.writeBytesField(tag, encode(write));
