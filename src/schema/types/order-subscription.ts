import { notFound } from "../../domain/errors.js";
import type { OrderUpdatedMessage } from "../../domain/order-notifications.js";
import { builder } from "../builder.js";
import { OrderStatusEnum } from "../enums.js";
import { takesIdsOf } from "../global-ids.js";
import { requireViewer } from "../require-viewer.js";

builder.subscriptionType({
  description:
    "Live updates over Server-Sent Events: POST the subscription to /graphql with `Accept: text/event-stream`.",
});

const OrderUpdateRef = builder.objectRef<OrderUpdatedMessage>("OrderUpdate").implement({
  description: "A change to one of the buyer's orders, made through any server of this API.",
  fields: (t) => ({
    order: t.prismaField({
      type: "Order",
      description: "The order as it is now.",
      resolve: (query, update, _args, context) =>
        context.prisma.order.findFirstOrThrow({
          ...query,
          where: { id: update.orderId, buyerId: requireViewer(context).buyerId },
        }),
    }),
    event: t.prismaField({
      type: "OrderEvent",
      description: "The recorded change: who made it and which fields went from what to what.",
      resolve: (query, update, _args, context) =>
        context.prisma.orderEvent.findFirstOrThrow({
          ...query,
          where: { id: update.eventId, buyerId: requireViewer(context).buyerId },
        }),
    }),
  }),
});

builder.subscriptionField("orderUpdated", (t) =>
  t.field({
    type: OrderUpdateRef,
    description:
      "Every change to the buyer's orders from now on, as it is committed. Errors: UNAUTHENTICATED without " +
      "a valid key; NOT_FOUND when `orderId` is not one of the buyer's orders.",
    args: {
      orderId: t.arg({
        type: "UUID",
        description: "Only changes to this order.",
        extensions: takesIdsOf("Order"),
      }),
      status: t.arg({
        type: OrderStatusEnum,
        description: "Only changes after which the order has this status (e.g. DELIVERED).",
      }),
    },
    subscribe: async (_root, { orderId, status }, context) => {
      const viewer = requireViewer(context);
      if (orderId) {
        const order = await context.prisma.order.findFirst({
          where: { id: orderId, buyerId: viewer.buyerId },
          select: { id: true },
        });
        if (!order) throw notFound("Order");
      }
      return context.orderUpdates.subscribe(
        (update) =>
          update.buyerId === viewer.buyerId &&
          (!orderId || update.orderId === orderId) &&
          (!status || update.orderStatus === status),
      );
    },
    resolve: (update) => update,
  }),
);
