/** The name of set-agent-comm's rooms view in its paths: `/source/<id>/rooms[/<room>]`. */
export const ROOMS = 'rooms';
