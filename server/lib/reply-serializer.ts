import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Writes REST replies the way Fastify does by default: the route's response schema (zod, turned
 * into JSON Schema) compiled once into a fast-json-stringify function, which writes only the
 * documented properties. zod's own serializer validates every reply with the schema and then
 * calls JSON.stringify, several times slower for long lists (docs/decisions/012). A schema JSON
 * Schema cannot express (a transform, a date) keeps zod's.
 */
export const replySerializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  // Compiled on the route's first reply, not at start: compiling every route's writer was about
  // a quarter of the start's CPU time at scale 10 (docs/operations/scaling.md, "Sixth session").
  let write: ((data: unknown) => string) | null = null;
  return (data) => (write ??= compileReplySerializer(route))(data);
};

/** The writer of one route's replies: fast-json-stringify from the schema, or zod's own when JSON Schema cannot say it. */
function compileReplySerializer(route: Parameters<FastifySerializerCompiler<z.ZodType>>[0]): (data: unknown) => string {
  let jsonSchema: Parameters<typeof fastJsonStringify>[0];
  try {
    jsonSchema = z.toJSONSchema(route.schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw' }) as typeof jsonSchema;
  } catch {
    return zodSerializerCompiler(route);
  }
  const stringify = fastJsonStringify(jsonSchema);
  return (data) => stringify(data);
}

/**
 * The writer replySerializerCompiler would make for a reply of this schema, for a part of a
 * reply written on its own (one item of a list, joined with others as the list's writer would).
 */
export function schemaSerializer(schema: z.ZodType): (data: unknown) => string {
  const write = replySerializerCompiler({ schema, method: 'GET', url: '', httpStatus: '200' });
  return (data) => write(data);
}
