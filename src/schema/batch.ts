interface Batch<Value> {
  ids: Set<string>;
  result: Promise<Map<string, Value>>;
}

const batchesByRequest = new WeakMap<object, Map<string, Batch<unknown>>>();

/**
 * Loads a value per id with one call to `loadMany` for all the ids asked for
 * by the resolvers of one request that run alongside each other (the rows of
 * one list): one query per list instead of one per row. `name` tells apart
 * the different things loaded in the same request.
 */
export async function batchLoad<Value>(
  context: object,
  name: string,
  id: string,
  loadMany: (ids: string[]) => Promise<Map<string, Value>>,
): Promise<Value | undefined> {
  let batches = batchesByRequest.get(context);
  if (!batches) {
    batches = new Map();
    batchesByRequest.set(context, batches);
  }
  let batch = batches.get(name) as Batch<Value> | undefined;
  if (!batch) {
    const ids = new Set<string>();
    const forRequest = batches;
    const result = new Promise<void>((resolve) => {
      // After the promise jobs already queued, where sibling rows resolve.
      setImmediate(resolve);
    }).then(() => {
      forRequest.delete(name);
      return loadMany([...ids]);
    });
    batch = { ids, result };
    batches.set(name, batch as Batch<unknown>);
  }
  batch.ids.add(id);
  return (await batch.result).get(id);
}

/** `batchLoad` for counts: ids without rows count 0. */
export async function batchCount(
  context: object,
  name: string,
  id: string,
  countMany: (ids: string[]) => Promise<{ id: string; count: number }[]>,
): Promise<number> {
  const count = await batchLoad(context, name, id, async (ids) => {
    const counts = new Map<string, number>();
    for (const row of await countMany(ids)) counts.set(row.id, (counts.get(row.id) ?? 0) + row.count);
    return counts;
  });
  return count ?? 0;
}
