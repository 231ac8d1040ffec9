// Values kept per key in a Map or WeakMap, made the first time they are asked for.

/** What `keptIn` needs of a map: a Map or a WeakMap. */
interface KeyedStore<Key, Value> {
  get(key: Key): Value | undefined;
  set(key: Key, value: Value): unknown;
}

/** The value `store` keeps for `key`; made by `make` and kept when there is none yet. */
export function keptIn<Key, Value>(store: KeyedStore<Key, Value>, key: Key, make: () => Value): Value {
  let value = store.get(key);
  if (value === undefined) {
    value = make();
    store.set(key, value);
  }
  return value;
}
