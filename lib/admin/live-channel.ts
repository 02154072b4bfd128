// What an admin page tells its viewer about its live feed ("live" or "offline"); the feeds
// themselves are the private team topics of lib/realtime/team-channel.ts.

/** What a page tells its viewer about its Realtime channel. */
export type LiveStatus = 'connecting' | 'live' | 'offline';
