-- An event's data is kept as the JSON text it was rendered as, so that its
-- object is delivered and read byte for byte as the REST read answered it:
-- jsonb orders keys its own way, and its numbers reached JavaScript rounded
-- to a double. Existing events keep their JSON as jsonb writes it (its key
-- order and spacing, every digit it held).
ALTER TABLE "webhook_events" ALTER COLUMN "data" SET DATA TYPE TEXT USING "data"::text;
