package fntest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"tenger/internal/awslambda"
	"tenger/internal/store"
	"tenger/internal/store/dynamo"
	"tenger/internal/store/keyspace"
)

// keyGuard records the table calls of the functions' handlers and of the
// engine task a test runs, and fails the test when one falls outside the
// caller's declared key space (internal/store/keyspace): the IAM role the
// stacks give the function would refuse it in AWS.
//
// A call is the function's when it is made in one of its invocations (its
// context carries the awslambda.Runtime's service name, whatever helper
// invoked the handler), the engine's when it goes through the engine's own
// store (EngineStore); every other call is the test's own setup and is not
// recorded.
type keyGuard struct {
	mu    sync.Mutex
	calls []tableCall
}

// tableCall is one item-level (or table-level) request a grantee made.
type tableCall struct {
	grantee string
	// op is the DynamoDB operation, or the transaction's part
	// ("TransactWriteItems/Put").
	op string
	// pk is the partition key: the table's, or the index's for a query
	// of an index.
	pk    string
	index string
	write bool
	// keyless marks an operation that names no item (DescribeTable);
	// refused, one that no grant allows (Scan, the batch operations).
	keyless, refused bool
}

// middleware observes every request of a DynamoDB client before it is sent.
func (g *keyGuard) middleware(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("TengerKeyspaceGuard",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			if grantee := granteeOf(ctx); grantee != "" {
				g.observe(grantee, in.Parameters)
			}
			return next.HandleInitialize(ctx, in)
		}), middleware.After)
}

// granteeOf names the process a call belongs to, or "" for the test's own.
func granteeOf(ctx context.Context) string {
	if ctx.Value(engineKey{}) != nil {
		return keyspace.EngineTask
	}
	return awslambda.ServiceOf(ctx)
}

// observe records the partition keys a request names.
func (g *keyGuard) observe(grantee string, params any) {
	var calls []tableCall
	add := func(op string, key map[string]types.AttributeValue, write bool) {
		calls = append(calls, tableCall{grantee: grantee, op: op, pk: str(key[dynamo.HashKey]), write: write})
	}
	switch in := params.(type) {
	case *dynamodb.GetItemInput:
		add("GetItem", in.Key, false)
	case *dynamodb.PutItemInput:
		add("PutItem", in.Item, true)
	case *dynamodb.UpdateItemInput:
		add("UpdateItem", in.Key, true)
	case *dynamodb.DeleteItemInput:
		add("DeleteItem", in.Key, true)
	case *dynamodb.QueryInput:
		index := ""
		if in.IndexName != nil {
			index = *in.IndexName
		}
		calls = append(calls, tableCall{grantee: grantee, op: "Query", index: index, pk: queryPartition(in, index)})
	case *dynamodb.TransactWriteItemsInput:
		for _, it := range in.TransactItems {
			switch {
			case it.Put != nil:
				add("TransactWriteItems/Put", it.Put.Item, true)
			case it.Update != nil:
				add("TransactWriteItems/Update", it.Update.Key, true)
			case it.Delete != nil:
				add("TransactWriteItems/Delete", it.Delete.Key, true)
			case it.ConditionCheck != nil:
				add("TransactWriteItems/ConditionCheck", it.ConditionCheck.Key, false)
			}
		}
	case *dynamodb.TransactGetItemsInput:
		for _, it := range in.TransactItems {
			if it.Get != nil {
				add("TransactGetItems/Get", it.Get.Key, false)
			}
		}
	case *dynamodb.DescribeTableInput:
		calls = append(calls, tableCall{grantee: grantee, op: "DescribeTable", keyless: true})
	default:
		// Scan, the batch operations and table management: nothing grants
		// them to a function or the engine.
		calls = append(calls, tableCall{grantee: grantee, op: strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", params), "*dynamodb."), "Input"), refused: true})
	}
	g.mu.Lock()
	g.calls = append(g.calls, calls...)
	g.mu.Unlock()
}

// queryPartition is the partition key value a query's key condition names:
// the equality on the table's or the index's partition attribute.
func queryPartition(in *dynamodb.QueryInput, index string) string {
	attr := dynamo.HashKey
	for _, ix := range dynamo.Indexes {
		if ix.Name == index {
			attr = ix.PartitionKey
		}
	}
	if in.KeyConditionExpression == nil {
		return ""
	}
	for _, clause := range strings.Split(*in.KeyConditionExpression, " AND ") {
		name, value, ok := strings.Cut(clause, "=")
		if !ok {
			continue
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if n, ok := in.ExpressionAttributeNames[name]; ok {
			name = n
		}
		if name == attr {
			return str(in.ExpressionAttributeValues[value])
		}
	}
	return ""
}

func str(av types.AttributeValue) string {
	if s, ok := av.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// check fails t once for each kind of call a grantee made outside its
// declaration, naming the grantee, the call, the key and what is missing.
func (g *keyGuard) check(t testing.TB) {
	t.Helper()
	g.mu.Lock()
	calls := g.calls
	g.mu.Unlock()
	// One failure per grantee, operation, prefix and index: the first
	// key stands for the others.
	type kind struct{ grantee, op, prefix, index string }
	seen := map[kind]bool{}
	var failures []string
	for _, c := range calls {
		k := kind{c.grantee, c.op, keyspace.Prefix(c.pk), c.index}
		if msg := violation(c); msg != "" && !seen[k] {
			seen[k] = true
			failures = append(failures, msg)
		}
	}
	sort.Strings(failures)
	for _, f := range failures {
		t.Error(f)
	}
}

// violation says how a call falls outside its grantee's declaration, or "".
func violation(c tableCall) string {
	gr, ok := keyspace.Of(c.grantee)
	switch {
	case !ok:
		return fmt.Sprintf("keyspace: %s called %s, and internal/store/keyspace declares no key space for %s", c.grantee, c.op, c.grantee)
	case c.refused:
		return fmt.Sprintf("keyspace: %s called %s, which no grant of the table allows", c.grantee, c.op)
	case c.keyless:
		if !gr.Feed {
			return fmt.Sprintf("keyspace: %s called %s, and its key space does not declare Feed", c.grantee, c.op)
		}
		return ""
	case c.index != "":
		if !gr.Queries(c.index) {
			return fmt.Sprintf("keyspace: %s queried index %s (partition %q), which its key space does not declare", c.grantee, c.index, c.pk)
		}
		return ""
	case c.write && !gr.Writing(c.pk):
		return fmt.Sprintf("keyspace: %s called %s on partition key %q, and its key space's Writes lack the prefix %q", c.grantee, c.op, c.pk, keyspace.Prefix(c.pk))
	case !gr.Reading(c.pk):
		return fmt.Sprintf("keyspace: %s called %s on partition key %q, and its key space lacks the prefix %q", c.grantee, c.op, c.pk, keyspace.Prefix(c.pk))
	}
	return ""
}

// engineKey marks the contexts of the engine task's own store calls.
type engineKey struct{}

// EngineStore is st as the engine task a test runs uses it: its calls are
// the engine's (keyspace.EngineTask), checked against the engine's key
// space rather than taken for the function under test or left out.
func EngineStore(st store.Store) store.Store { return engineStore{st} }

// engineStore marks every call's context as the engine's.
type engineStore struct{ store.Store }

func asEngine(ctx context.Context) context.Context { return context.WithValue(ctx, engineKey{}, true) }

func (s engineStore) Get(ctx context.Context, key store.Key) (store.Item, error) {
	return s.Store.Get(asEngine(ctx), key)
}

func (s engineStore) Put(ctx context.Context, item store.Item, cond store.Cond) error {
	return s.Store.Put(asEngine(ctx), item, cond)
}

func (s engineStore) Update(ctx context.Context, key store.Key, upd *store.Update, cond store.Cond) (store.Item, error) {
	return s.Store.Update(asEngine(ctx), key, upd, cond)
}

func (s engineStore) Delete(ctx context.Context, key store.Key, cond store.Cond) error {
	return s.Store.Delete(asEngine(ctx), key, cond)
}

func (s engineStore) Transact(ctx context.Context, ops []store.Op) error {
	return s.Store.Transact(asEngine(ctx), ops)
}

func (s engineStore) Query(ctx context.Context, q store.Query) (store.Page, error) {
	return s.Store.Query(asEngine(ctx), q)
}
