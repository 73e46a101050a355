import { sacItemResponseSchema, sacRoomResponseSchema, sacRoomsResponseSchema, sacSeatResponseSchema } from '../../../../shared/wire/sac.ts';
import { getJson } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { apiUrls } from '../../api/urls.ts';
import { ROOMS } from './sacPaths.ts';

// The set-agent-comm views' side of the wire: a store's rooms, one room's flow and a seat's Sent |
// Received (the newest `limit` of each), and one entry whole.

export const sacKeys = {
  rooms: (source: string) => [...queryKeys.views(source), ROOMS] as const,
  room: (source: string, room: string, flow: RoomFlowFilter, limit: number) => [...queryKeys.views(source), ROOMS, room, flow, limit] as const,
  seat: (source: string, seat: string, others: boolean, limit: number) => [...queryKeys.conversation(source, seat), others, limit] as const,
  item: (source: string, seat: string, item: string) => [...queryKeys.conversation(source, seat), 'item', item] as const,
};

export const fetchRooms = (source: string, signal?: AbortSignal) => getJson(apiUrls.view('sac', source, ROOMS, null), sacRoomsResponseSchema, { signal });

/** sac admin's flow filter: every entry, or only those that wake a seat. */
export type RoomFlowFilter = 'all' | 'waking';

export const fetchRoom = (source: string, room: string, flow: RoomFlowFilter, limit: number, signal?: AbortSignal) =>
  getJson(apiUrls.view('sac', source, ROOMS, room, { flow, limit: String(limit) }), sacRoomResponseSchema, { signal });

export const fetchSeat = (source: string, seat: string, others: boolean, limit: number, signal?: AbortSignal) =>
  getJson(apiUrls.conversation(source, seat, { others: others ? '1' : '0', limit: String(limit) }), sacSeatResponseSchema, { signal });

export const fetchItem = (source: string, seat: string, item: string, signal?: AbortSignal) => getJson(apiUrls.item(source, seat, item), sacItemResponseSchema, { signal });
