import { BuyerApi } from "@buyer-api/client";

const api = new BuyerApi({
  baseUrl: process.env.BUYER_API_URL ?? "http://localhost:4000",
  apiKey: process.env.BUYER_API_KEY ?? "",
});
const tagId = process.env.SYNC_TAG_ID ?? ""; // the tag every confirmed order gets

for await (const order of api.orders.list({ order_status: ["order_placed"] })) {
  const confirmed = await api.orders.update({ id: order.id, body: { order_status: "order_confirmed" } });
  await api.taggings.create({ body: { taggable_id: confirmed.id, tag_ids: [tagId] } });
  console.log(`${confirmed.order_reference} confirmed and tagged`);
}
