// Package dynamo is the DynamoDB adapter of the storage port (store.Store):
// one table with pk/sk, two GSIs, TTL and a NEW_AND_OLD_IMAGES stream that
// backs the change feed. It passes the same contract suite (store/storetest)
// as the embedded adapter, against DynamoDB Local in tests.
//
// DynamoDB limits that the port does not state: numbers have at most 38
// significant digits (larger ones fail with store.ErrInvalid), items at most
// 400 KB, and a write that leaves an item unchanged (the same Put twice, an
// Update setting the current value) produces no stream record, so the
// change feed carries every write that changed an item.
package dynamo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/smithy-go"

	"tenger/internal/store"
)

var _ store.Store = (*Store)(nil)

// Store implements store.Store on one DynamoDB table.
type Store struct {
	db      *dynamodb.Client
	streams *dynamodbstreams.Client
	table   string
	closed  atomic.Bool

	// The stream ARN is looked up once, on the first feed read.
	streamMu  sync.Mutex
	streamARN string
}

// New returns a store on an existing table (see CreateTable). streams may be
// nil when the caller never reads the change feed (Lambda stream consumers
// receive records from the event source mapping instead).
func New(client *dynamodb.Client, streams *dynamodbstreams.Client, table string) *Store {
	return &Store{db: client, streams: streams, table: table}
}

// Table returns the table name.
func (s *Store) Table() string { return s.table }

// Close marks the store closed; the clients need no release.
func (s *Store) Close() error {
	s.closed.Store(true)
	return nil
}

func (s *Store) check() error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	return nil
}

func keyAV(k store.Key) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		HashKey:  &types.AttributeValueMemberS{Value: k.PK},
		RangeKey: &types.AttributeValueMemberS{Value: k.SK},
	}
}

// Get reads one item with a strongly consistent read.
func (s *Store) Get(ctx context.Context, key store.Key) (store.Item, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if err := store.ValidateKey(key); err != nil {
		return nil, err
	}
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            keyAV(key),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, mapErr("get", err)
	}
	if len(out.Item) == 0 {
		return nil, store.ErrNotFound
	}
	return UnmarshalItem(out.Item)
}

// Put writes a whole item if cond holds.
func (s *Store) Put(ctx context.Context, item store.Item, cond store.Cond) error {
	if err := s.check(); err != nil {
		return err
	}
	in, err := s.putInput(item, cond)
	if err != nil {
		return err
	}
	return withConflictRetry(ctx, func() error {
		_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{
			TableName:                 in.TableName,
			Item:                      in.Item,
			ConditionExpression:       in.ConditionExpression,
			ExpressionAttributeNames:  in.ExpressionAttributeNames,
			ExpressionAttributeValues: in.ExpressionAttributeValues,
		})
		return mapErr("put", err)
	})
}

func (s *Store) putInput(item store.Item, cond store.Cond) (*types.Put, error) {
	norm, err := store.Normalize(item)
	if err != nil {
		return nil, err
	}
	if err := store.ValidateItem(norm); err != nil {
		return nil, err
	}
	av, err := MarshalItem(norm)
	if err != nil {
		return nil, err
	}
	b := newExprBuilder()
	ce, err := b.cond(cond)
	if err != nil {
		return nil, err
	}
	return &types.Put{
		TableName:                 aws.String(s.table),
		Item:                      av,
		ConditionExpression:       optional(ce),
		ExpressionAttributeNames:  b.attrNames(),
		ExpressionAttributeValues: b.attrValues(),
	}, nil
}

// Update applies upd if cond holds (creating the item when missing) and
// returns the item after the update.
func (s *Store) Update(ctx context.Context, key store.Key, upd *store.Update, cond store.Cond) (store.Item, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	in, err := s.updateInput(key, upd, cond)
	if err != nil {
		return nil, err
	}
	var out *dynamodb.UpdateItemOutput
	err = withConflictRetry(ctx, func() error {
		var err error
		out, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 in.TableName,
			Key:                       in.Key,
			UpdateExpression:          in.UpdateExpression,
			ConditionExpression:       in.ConditionExpression,
			ExpressionAttributeNames:  in.ExpressionAttributeNames,
			ExpressionAttributeValues: in.ExpressionAttributeValues,
			ReturnValues:              types.ReturnValueAllNew,
		})
		return mapErr("update", err)
	})
	if err != nil {
		return nil, err
	}
	return UnmarshalItem(out.Attributes)
}

func (s *Store) updateInput(key store.Key, upd *store.Update, cond store.Cond) (*types.Update, error) {
	if err := store.ValidateKey(key); err != nil {
		return nil, err
	}
	b := newExprBuilder()
	ue, err := b.update(upd)
	if err != nil {
		return nil, err
	}
	ce, err := b.cond(cond)
	if err != nil {
		return nil, err
	}
	return &types.Update{
		TableName:                 aws.String(s.table),
		Key:                       keyAV(key),
		UpdateExpression:          aws.String(ue),
		ConditionExpression:       optional(ce),
		ExpressionAttributeNames:  b.attrNames(),
		ExpressionAttributeValues: b.attrValues(),
	}, nil
}

// Delete removes the item under key if cond holds.
func (s *Store) Delete(ctx context.Context, key store.Key, cond store.Cond) error {
	if err := s.check(); err != nil {
		return err
	}
	in, err := s.deleteInput(key, cond)
	if err != nil {
		return err
	}
	return withConflictRetry(ctx, func() error {
		_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName:                 in.TableName,
			Key:                       in.Key,
			ConditionExpression:       in.ConditionExpression,
			ExpressionAttributeNames:  in.ExpressionAttributeNames,
			ExpressionAttributeValues: in.ExpressionAttributeValues,
		})
		return mapErr("delete", err)
	})
}

func (s *Store) deleteInput(key store.Key, cond store.Cond) (*types.Delete, error) {
	if err := store.ValidateKey(key); err != nil {
		return nil, err
	}
	b := newExprBuilder()
	ce, err := b.cond(cond)
	if err != nil {
		return nil, err
	}
	return &types.Delete{
		TableName:                 aws.String(s.table),
		Key:                       keyAV(key),
		ConditionExpression:       optional(ce),
		ExpressionAttributeNames:  b.attrNames(),
		ExpressionAttributeValues: b.attrValues(),
	}, nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

// errConflict marks a write that lost a race with a concurrent transaction;
// it is retried and never escapes withConflictRetry unwrapped.
var errConflict = errors.New("dynamo: transaction conflict")

// mapErr translates DynamoDB errors into the port's errors.
func mapErr(op string, err error) error {
	if err == nil {
		return nil
	}
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return store.ErrConditionFailed
	}
	var tc *types.TransactionConflictException
	if errors.As(err, &tc) {
		return fmt.Errorf("%w: %s: %v", errConflict, op, err)
	}
	var api smithy.APIError
	if errors.As(err, &api) && api.ErrorCode() == "ValidationException" {
		return fmt.Errorf("%w: dynamo %s: %s", store.ErrInvalid, op, api.ErrorMessage())
	}
	// Wrapped, so errors.Is still finds context.Canceled and friends.
	return fmt.Errorf("dynamo: %s: %w", op, err)
}

// Conflict retry policy: full-jitter exponential backoff. Transactions that
// touch one hot item (a balance) conflict often under load; DynamoDB expects
// the client to retry them.
const (
	conflictAttempts = 40
	conflictBase     = 5 * time.Millisecond
	conflictCap      = 200 * time.Millisecond
)

func withConflictRetry(ctx context.Context, f func() error) error {
	var err error
	for attempt := 0; attempt < conflictAttempts; attempt++ {
		err = f()
		if !errors.Is(err, errConflict) {
			return err
		}
		if err := sleepBackoff(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

func sleepBackoff(ctx context.Context, attempt int) error {
	d := conflictBase << min(attempt, 10)
	if d > conflictCap {
		d = conflictCap
	}
	d = time.Duration(rand.Int64N(int64(d)) + 1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
