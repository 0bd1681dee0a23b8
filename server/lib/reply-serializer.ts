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
  let jsonSchema: Parameters<typeof fastJsonStringify>[0];
  try {
    jsonSchema = z.toJSONSchema(route.schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw' }) as typeof jsonSchema;
  } catch {
    return zodSerializerCompiler(route);
  }
  const stringify = fastJsonStringify(jsonSchema);
  return (data) => stringify(data);
};

/**
 * The writer replySerializerCompiler would make for a reply of this schema, for a part of a
 * reply written on its own (one item of a list, joined with others as the list's writer would).
 */
export function schemaSerializer(schema: z.ZodType): (data: unknown) => string {
  const write = replySerializerCompiler({ schema, method: 'GET', url: '', httpStatus: '200' });
  return (data) => write(data);
}
