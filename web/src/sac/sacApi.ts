import type { z } from 'zod';
import { sacItemResponseSchema, sacRoomResponseSchema, sacRoomsResponseSchema, sacSeatResponseSchema } from '../../../shared/wire/sac.ts';
import { ApiError } from '../api/client.ts';

// The set-agent-comm views' side of the wire: every answer parsed with the shared schema.

async function getJson<S extends z.ZodType>(url: string, schema: S, signal?: AbortSignal): Promise<z.infer<S>> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, (body as { message?: string } | null)?.message ?? `the server answered ${response.status}`);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(response.status, `the server's answer does not match ${url.split('?')[0]}: ${parsed.error.message}`);
  return parsed.data;
}

export const sacKeys = {
  all: (source: string) => ['sac', source] as const,
  rooms: (source: string) => ['sac', source, 'rooms'] as const,
  room: (source: string, room: string, limit: number) => ['sac', source, 'room', room, limit] as const,
  seat: (source: string, seat: string, others: boolean, limit: number) => ['sac', source, 'seat', seat, others, limit] as const,
  item: (source: string, seat: string, item: string) => ['sac', source, 'item', seat, item] as const,
};

export const fetchRooms = (source: string, signal?: AbortSignal) => getJson(`/api/sac/rooms?${new URLSearchParams({ source })}`, sacRoomsResponseSchema, signal);

export const fetchRoom = (source: string, room: string, limit: number, signal?: AbortSignal) =>
  getJson(`/api/sac/rooms/${encodeURIComponent(room)}?${new URLSearchParams({ source, limit: String(limit) })}`, sacRoomResponseSchema, signal);

export const fetchSeat = (source: string, seat: string, others: boolean, limit: number, signal?: AbortSignal) =>
  getJson(`/api/sessions/${encodeURIComponent(seat)}?${new URLSearchParams({ source, others: others ? '1' : '0', limit: String(limit) })}`, sacSeatResponseSchema, signal);

export const fetchItem = (source: string, seat: string, item: string, signal?: AbortSignal) =>
  getJson(`/api/sessions/${encodeURIComponent(seat)}/items/${encodeURIComponent(item)}?${new URLSearchParams({ source })}`, sacItemResponseSchema, signal);
