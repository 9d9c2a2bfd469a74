/**
 * The layers of the street graph (walk, bike, car) and the access bits of an edge: for each layer,
 * "along the edge's geometry" (forward) and "against it" (backward), plus NO_PARKING where a car
 * cannot be left (motorways).
 */
export const WALK_FORWARD = 1 << 0;
export const WALK_BACKWARD = 1 << 1;
export const BIKE_FORWARD = 1 << 2;
export const BIKE_BACKWARD = 1 << 3;
export const CAR_FORWARD = 1 << 4;
export const CAR_BACKWARD = 1 << 5;
export const NO_PARKING = 1 << 6;
/** Every access bit: a street any layer may use, either way. */
export const ANY_ACCESS = 0xff;

export const enum Layer {
  Walk = 0,
  Bike = 1,
  Car = 2,
}
export const LAYER_NAMES = ['walk', 'bike', 'car'] as const;

/** The two direction bits of a layer: forward is `1 << (2 * layer)`, backward the next bit. */
export const forwardBit = (layer: Layer): number => 1 << (2 * layer);
export const backwardBit = (layer: Layer): number => 2 << (2 * layer);
export const layerBits = (layer: Layer): number => 3 << (2 * layer);
