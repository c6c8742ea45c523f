// Package store is the storage port of Tenger: an item store shaped like a
// DynamoDB single table. Domain packages depend only on this package; the
// embedded adapter (store/embedded) backs the local binary and the DynamoDB
// adapter (store/dynamo) backs the AWS runtime. Both pass the same contract
// suite in store/storetest.
//
// Items are addressed by a partition key (attribute "pk") and a sort key
// (attribute "sk"). Two secondary indexes are projected from the attributes
// "gsi1pk"/"gsi1sk" and "gsi2pk"/"gsi2sk"; an item that lacks an index's
// partition attribute is simply not in that index. The attribute "ttl" holds
// an expiry time in Unix seconds; expired items are removed eventually (as in
// DynamoDB, readers must still check expiry themselves when it matters).
package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Reserved attribute names.
const (
	AttrPK     = "pk"
	AttrSK     = "sk"
	AttrGSI1PK = "gsi1pk"
	AttrGSI1SK = "gsi1sk"
	AttrGSI2PK = "gsi2pk"
	AttrGSI2SK = "gsi2sk"
	AttrTTL    = "ttl"
	// AttrVersion is the optimistic-concurrency counter used by VersionIs.
	AttrVersion = "ver"
)

// Index names accepted by Query.Index.
const (
	IndexMain = ""
	IndexGSI1 = "gsi1"
	IndexGSI2 = "gsi2"
)

// MaxTransactItems is the largest number of writes one Transact call may hold,
// the same limit DynamoDB's TransactWriteItems has.
const MaxTransactItems = 100

// Key addresses one item.
type Key struct {
	PK string
	SK string
}

func (k Key) String() string { return k.PK + "|" + k.SK }

// Errors returned by every adapter. Callers test them with errors.Is.
var (
	// ErrNotFound: Get found no item under the key.
	ErrNotFound = errors.New("store: item not found")
	// ErrConditionFailed: a write's condition did not hold; nothing was written.
	ErrConditionFailed = errors.New("store: condition failed")
	// ErrInvalid: the request itself is malformed (missing keys, bad value
	// types, too many transaction items, the same item twice in a transaction).
	ErrInvalid = errors.New("store: invalid request")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("store: closed")
)

// TxCanceledError reports which operation of a transaction failed its
// condition. It matches ErrConditionFailed under errors.Is.
type TxCanceledError struct {
	// Index is the position in the Transact slice of the first operation
	// whose condition failed.
	Index int
}

func (e *TxCanceledError) Error() string {
	return fmt.Sprintf("store: transaction canceled: condition of operation %d failed", e.Index)
}

// Is makes errors.Is(err, ErrConditionFailed) true.
func (e *TxCanceledError) Is(target error) bool { return target == ErrConditionFailed }

// Store is the storage port.
type Store interface {
	// Get reads one item (strongly consistent). It returns ErrNotFound when
	// there is none.
	Get(ctx context.Context, key Key) (Item, error)
	// Put writes a whole item (which must hold pk and sk) if cond holds.
	// A nil cond means unconditional.
	Put(ctx context.Context, item Item, cond Cond) error
	// Update applies upd to the item under key if cond holds, creating the
	// item when it does not exist (as DynamoDB UpdateItem does), and returns
	// the item as it is after the update.
	Update(ctx context.Context, key Key, upd *Update, cond Cond) (Item, error)
	// Delete removes the item under key if cond holds. Deleting a missing
	// item without a condition is not an error.
	Delete(ctx context.Context, key Key, cond Cond) error
	// Transact applies up to MaxTransactItems operations atomically: all of
	// them or none. Each operation may carry a condition; CheckOp only checks.
	// A failed condition returns a *TxCanceledError. One item may appear in
	// only one operation.
	Transact(ctx context.Context, ops []Op) error
	// Query reads one partition of the table or of an index, ordered by sort
	// key, paginated by an opaque cursor.
	Query(ctx context.Context, q Query) (Page, error)
	// Changes returns the ordered change feed of the table.
	Changes() Feed
	// Close releases the store; pending acknowledged writes are durable.
	Close() error
}

// Pipelined is implemented by stores that can hand a transaction back once
// it is applied and before it is durable (the embedded store, whose
// commits share fsyncs). A caller that batches writes (the ledger) then
// lets its next batch be applied while the previous one waits for the
// disk, and both are made durable by one fsync.
type Pipelined interface {
	// TransactApplied is Transact returning as soon as the transaction is
	// applied: its conditions held, its writes are ordered before every
	// later write and visible to readers. An error means what it means
	// from Transact. Otherwise the caller must call durable, and may take
	// the transaction as done only when durable returns nil.
	TransactApplied(ctx context.Context, ops []Op) (durable func() error, err error)
}

// TransactApplied runs ops on st as Pipelined.TransactApplied does when st
// is pipelined; on any other store it runs Transact and hands back a
// durable that has nothing left to wait for.
func TransactApplied(ctx context.Context, st Store, ops []Op) (durable func() error, err error) {
	if p, ok := st.(Pipelined); ok {
		return p.TransactApplied(ctx, ops)
	}
	if err := st.Transact(ctx, ops); err != nil {
		return nil, err
	}
	return func() error { return nil }, nil
}

// OpKind says what a transaction operation does.
type OpKind int

// Transaction operation kinds.
const (
	OpPut OpKind = iota + 1
	OpUpdate
	OpDelete
	OpCheck
)

// Op is one operation of a transaction.
type Op struct {
	Kind   OpKind
	Key    Key  // for Update, Delete and Check
	Item   Item // for Put
	Update *Update
	Cond   Cond
	// Name labels the operation's condition, so that a caller tells which
	// one failed by name (FailedCondition) rather than by its position.
	Name string
}

// Named returns the operation with its condition named.
func (o Op) Named(name string) Op { o.Name = name; return o }

// FailedCondition is the name of the operation of ops whose condition
// made Transact(ops) fail with err; ok is false when err is no such
// failure.
func FailedCondition(err error, ops []Op) (name string, ok bool) {
	var tx *TxCanceledError
	if !errors.As(err, &tx) || tx.Index < 0 || tx.Index >= len(ops) {
		return "", false
	}
	return ops[tx.Index].Name, true
}

// PutOp builds a transactional put.
func PutOp(item Item, cond Cond) Op { return Op{Kind: OpPut, Item: item, Key: item.Key(), Cond: cond} }

// UpdateOp builds a transactional update.
func UpdateOp(key Key, upd *Update, cond Cond) Op {
	return Op{Kind: OpUpdate, Key: key, Update: upd, Cond: cond}
}

// DeleteOp builds a transactional delete.
func DeleteOp(key Key, cond Cond) Op { return Op{Kind: OpDelete, Key: key, Cond: cond} }

// CheckOp builds a condition check that writes nothing.
func CheckOp(key Key, cond Cond) Op { return Op{Kind: OpCheck, Key: key, Cond: cond} }

// SKCondKind selects how the sort key of a query is restricted.
type SKCondKind int

// Sort-key restrictions.
const (
	SKAll SKCondKind = iota
	SKEq
	SKPrefix
	SKBetween // inclusive on both ends
	SKLt
	SKLe
	SKGt
	SKGe
)

// SKCond restricts the sort key of a query. Sort keys compare as byte strings.
type SKCond struct {
	Kind SKCondKind
	A, B string
}

// SKPrefixed matches sort keys that begin with p.
func SKPrefixed(p string) SKCond { return SKCond{Kind: SKPrefix, A: p} }

// SKRange matches sort keys from a to b, inclusive.
func SKRange(a, b string) SKCond { return SKCond{Kind: SKBetween, A: a, B: b} }

// Query reads one partition.
type Query struct {
	Index string // IndexMain, IndexGSI1 or IndexGSI2
	PK    string // value of the partition attribute of the chosen index
	SK    SKCond
	// Desc returns items in descending sort-key order.
	Desc bool
	// Limit is the page size; 0 means 100. Adapters may return fewer items
	// than Limit with a non-empty cursor; callers loop until the cursor is
	// empty.
	Limit int
	// Cursor continues a previous page; "" starts at the beginning.
	Cursor string
}

// Page is one page of query results.
type Page struct {
	Items  []Item
	Cursor string // "" when there are no more items
}

// EachLive calls fn for every item of a query, page after page, leaving
// out those whose TTL (AttrTTL, Unix seconds) is not after now: DynamoDB
// removes expired items only within days, so readers skip them.
func EachLive(ctx context.Context, st Store, q Query, now time.Time, fn func(Item)) error {
	for {
		page, err := st.Query(ctx, q)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			if !it.Has(AttrTTL) || it.Int(AttrTTL) > now.Unix() {
				fn(it)
			}
		}
		if page.Cursor == "" {
			return nil
		}
		q.Cursor = page.Cursor
	}
}

// ChangeKind says what happened to an item.
type ChangeKind string

// Change kinds, named as DynamoDB Streams names them.
const (
	ChangeInsert ChangeKind = "INSERT"
	ChangeModify ChangeKind = "MODIFY"
	ChangeRemove ChangeKind = "REMOVE"
)

// Change is one entry of the change feed.
type Change struct {
	// ID is unique and increases along the feed of one key.
	ID   string
	Kind ChangeKind
	Key  Key
	Old  Item // nil on insert
	New  Item // nil on remove
	// At is the Unix time in milliseconds of the write.
	At int64
}

// Feed is the ordered change feed. Every committed write that changes an item
// appears exactly once, in commit order for any one item; a write that leaves
// the item as it was (the same Put twice) leaves no trace, as in DynamoDB
// Streams. A consumer keeps the checkpoint returned
// with each batch and passes it back to continue after that batch.
type Feed interface {
	// Read returns up to limit changes after checkpoint ("" = from the start
	// of what the feed retains) and the checkpoint that follows them. It
	// returns an empty batch, not an error, when there is nothing new.
	Read(ctx context.Context, checkpoint string, limit int) ([]Change, string, error)
}
