package dynamo

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"tenger/internal/store"
)

// Cancellation reason codes of TransactWriteItems.
const (
	reasonConditionFailed = "ConditionalCheckFailed"
	reasonConflict        = "TransactionConflict"
	reasonValidation      = "ValidationError"
)

// Transact applies ops atomically with TransactWriteItems. Requests the port
// forbids (empty, over 100 operations, one item twice) fail with ErrInvalid
// before anything is sent. Conflicts with concurrent transactions are
// retried with backoff; a failed condition returns *store.TxCanceledError.
func (s *Store) Transact(ctx context.Context, ops []store.Op) error {
	if err := s.check(); err != nil {
		return err
	}
	items, err := s.transactItems(ops)
	if err != nil {
		return err
	}
	in := &dynamodb.TransactWriteItemsInput{TransactItems: items}
	return withConflictRetry(ctx, func() error {
		_, err := s.db.TransactWriteItems(ctx, in)
		return mapTxErr(err, len(ops))
	})
}

func (s *Store) transactItems(ops []store.Op) ([]types.TransactWriteItem, error) {
	if len(ops) == 0 {
		return nil, fmt.Errorf("%w: empty transaction", store.ErrInvalid)
	}
	if len(ops) > store.MaxTransactItems {
		return nil, fmt.Errorf("%w: %d operations in one transaction (max %d)", store.ErrInvalid, len(ops), store.MaxTransactItems)
	}
	seen := make(map[store.Key]int, len(ops))
	items := make([]types.TransactWriteItem, len(ops))
	for i, op := range ops {
		key := op.Key
		if op.Kind == store.OpPut {
			key = op.Item.Key()
		}
		if j, dup := seen[key]; dup {
			return nil, fmt.Errorf("%w: operations %d and %d both touch %s", store.ErrInvalid, j, i, key)
		}
		seen[key] = i
		var err error
		switch op.Kind {
		case store.OpPut:
			items[i].Put, err = s.putInput(op.Item, op.Cond)
		case store.OpUpdate:
			items[i].Update, err = s.updateInput(op.Key, op.Update, op.Cond)
		case store.OpDelete:
			items[i].Delete, err = s.deleteInput(op.Key, op.Cond)
		case store.OpCheck:
			items[i].ConditionCheck, err = s.checkInput(op.Key, op.Cond)
		default:
			err = fmt.Errorf("%w: unknown operation kind %d", store.ErrInvalid, op.Kind)
		}
		if err != nil {
			return nil, fmt.Errorf("transaction operation %d: %w", i, err)
		}
	}
	return items, nil
}

func (s *Store) checkInput(key store.Key, cond store.Cond) (*types.ConditionCheck, error) {
	if err := store.ValidateKey(key); err != nil {
		return nil, err
	}
	b := newExprBuilder()
	ce, err := b.cond(cond)
	if err != nil {
		return nil, err
	}
	if ce == "" {
		// A nil condition always holds, but DynamoDB requires one.
		pk := b.name(HashKey)
		ce = "attribute_exists(" + pk + ") OR attribute_not_exists(" + pk + ")"
	}
	return &types.ConditionCheck{
		TableName:                 aws.String(s.table),
		Key:                       keyAV(key),
		ConditionExpression:       aws.String(ce),
		ExpressionAttributeNames:  b.attrNames(),
		ExpressionAttributeValues: b.attrValues(),
	}, nil
}

// reasonList matches the codes DynamoDB (Local) lists in the cancellation
// message, "... reasons [None, ConditionalCheckFailed]", used when the
// structured reasons are missing.
var reasonList = regexp.MustCompile(`\[([A-Za-z, ]+)\]`)

func cancellationCodes(tce *types.TransactionCanceledException, n int) []string {
	if len(tce.CancellationReasons) > 0 {
		codes := make([]string, len(tce.CancellationReasons))
		for i, r := range tce.CancellationReasons {
			codes[i] = aws.ToString(r.Code)
		}
		return codes
	}
	m := reasonList.FindStringSubmatch(tce.ErrorMessage())
	if m == nil {
		return nil
	}
	codes := strings.Split(m[1], ",")
	for i := range codes {
		codes[i] = strings.TrimSpace(codes[i])
	}
	if len(codes) != n {
		return nil
	}
	return codes
}

// mapTxErr maps a TransactWriteItems error: the first failed condition wins
// over conflicts (the transaction would fail anyway), conflicts are retried.
func mapTxErr(err error, n int) error {
	if err == nil {
		return nil
	}
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return mapErr("transact", err)
	}
	codes := cancellationCodes(tce, n)
	for i, c := range codes {
		if c == reasonConditionFailed {
			return &store.TxCanceledError{Index: i}
		}
	}
	for _, c := range codes {
		if c == reasonConflict {
			return fmt.Errorf("%w: %v", errConflict, err)
		}
	}
	for i, c := range codes {
		if c == reasonValidation {
			return fmt.Errorf("%w: transaction operation %d: %s", store.ErrInvalid, i, tce.ErrorMessage())
		}
	}
	return fmt.Errorf("dynamo: transact: %w", err)
}
