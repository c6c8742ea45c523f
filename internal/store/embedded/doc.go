// Package embedded is the on-disk adapter of the storage port
// (tenger/internal/store) used by the local binary `tenger serve`.
//
// # Why Pebble
//
// The store sits on Pebble (github.com/cockroachdb/pebble), the LSM-tree
// key-value engine of CockroachDB. It writes every batch to a write-ahead log
// before applying it, recovers to the last synced batch after a crash (torn
// WAL tails are detected by checksums), is pure Go (no cgo, one static binary),
// is heavily tested in production, and groups WAL fsyncs of concurrent
// committers, which is what makes durable transactions cheap: one fsync
// acknowledges many transactions. Ordered iteration gives sort-key queries and
// index scans for free; atomic batches give all-or-nothing transactions.
//
// # Layout
//
// Items, the two secondary indexes, a TTL index and the change feed live in
// separate key namespaces of one Pebble database (see keys.go). Items are
// encoded in a compact, deterministic binary form with exact decimal numbers
// and without their key attributes, which the Pebble key holds (see
// codec.go). Every write maintains the index entries, the TTL entry and
// appends its change records (old and new image) in the same atomic batch,
// all of them under one feed key (see feed.go).
//
// # Writes: atomic, serializable and durable
//
// A write (Put, Update, Delete or a Transact of up to 100 operations) runs in
// three steps:
//
//  1. It locks the striped mutexes of all its keys in ascending stripe order
//     (so two transactions never deadlock), reads the current items (from a
//     small per-stripe cache of recently written keys, else from Pebble),
//     checks the conditions (store.Eval) and computes the new items
//     (store.Update.Apply). Every writer of a key holds its lock from read
//     to commit, so condition checks and writes are atomic and serializable.
//  2. It reserves the change-feed sequence numbers of its records and hands
//     the Pebble batch to the WAL and memtable (ApplyNoSyncWait with Sync).
//     No lock is held across the commit, so Pebble applies concurrent
//     batches to its memtable in parallel. Then it releases the key locks.
//  3. It waits for the WAL fsync (Batch.SyncWait) and only then
//     acknowledges. Pebble syncs everything queued so far at once, so
//     concurrent writers share fsyncs (group commit).
//
// TransactApplied (store.Pipelined) returns after step 2 and hands the
// caller step 3 as a function: the ledger frees its batch slot before it
// waits, so the next batch is applied while this one's fsync is pending and
// both are acknowledged by one fsync.
//
// Releasing the key locks before the fsync pipelines writes to a hot key (a
// fee account credited by every trade): the next writer reads the not yet
// durable state, but its batch enters the WAL later, so it cannot be
// acknowledged before the earlier batch is durable, and a crash loses both
// or neither. A write that ends without writing (a failed condition, a
// check, a no-op) waits until the state it read is durable before it
// answers, so no answer rests on a state a crash could undo.
//
// The feed hands out only changes at or below the "durable sequence": the
// highest sequence below which every reservation has completed its fsync
// (or failed to commit and left a hole). Two writers of one key are ordered
// by the key's lock, so one item's changes carry rising sequences; writers of
// different keys may reach the WAL in another order than their sequences,
// which is why the watermark moves only over contiguous completed
// reservations (see sequencer): a reader never skips a change that becomes
// durable later. As in DynamoDB Streams, order is guaranteed per item, and
// sequences rise but need not be consecutive: besides a failed commit, a
// crash can leave a hole, the reservation of a write in flight whose batch
// had not reached the WAL when a later one did (it was never acknowledged).
//
// Plain readers (Get, Query) take no locks and may observe a write during
// the fraction of a millisecond between its commit and its fsync, as they
// would observe it just before its acknowledgement.
//
// A write that would leave the item byte-for-byte unchanged is skipped and
// emits no change, as DynamoDB Streams do.
//
// # TTL and feed retention
//
// Items whose numeric "ttl" attribute (Unix seconds) is in the past are
// deleted by a background sweeper (Options.SweepInterval) or SweepExpired,
// each deletion emitting a REMOVE change. The TTL index is ordered by expiry,
// so a sweep reads only the expired entries. The sweeper also prunes feed
// records older than Options.FeedRetention.
package embedded
