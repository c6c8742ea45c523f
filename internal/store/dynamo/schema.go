package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"tenger/internal/store"
)

// Table schema. The CDK data stack builds the production table from these
// names so that the stack, CreateTable and the adapter cannot drift apart.
const (
	// HashKey is the table's partition key attribute (type S).
	HashKey = store.AttrPK
	// RangeKey is the table's sort key attribute (type S).
	RangeKey = store.AttrSK
	// IndexGSI1 is the first global secondary index.
	IndexGSI1 = store.IndexGSI1
	// IndexGSI2 is the second global secondary index.
	IndexGSI2 = store.IndexGSI2
	// TTLAttribute holds the expiry time in Unix seconds.
	TTLAttribute = store.AttrTTL
	// StreamViewType is the stream view the change feed needs (old and new
	// images, so consumers see both sides of every change).
	StreamViewType = string(types.StreamViewTypeNewAndOldImages)
	// BillingMode of the table.
	BillingMode = string(types.BillingModePayPerRequest)
	// ProjectionType of both indexes: every attribute, so index queries
	// return whole items like main-table queries do.
	ProjectionType = string(types.ProjectionTypeAll)
)

// IndexSpec describes one global secondary index; every key attribute is a
// string.
type IndexSpec struct {
	Name         string
	PartitionKey string
	SortKey      string
}

// Indexes lists the table's global secondary indexes.
var Indexes = []IndexSpec{
	{Name: IndexGSI1, PartitionKey: store.AttrGSI1PK, SortKey: store.AttrGSI1SK},
	{Name: IndexGSI2, PartitionKey: store.AttrGSI2PK, SortKey: store.AttrGSI2SK},
}

// indexKeys returns the partition and sort key attributes of an index name
// ("" is the table itself), or false for an unknown index.
func indexKeys(index string) (pk, sk string, ok bool) {
	if index == store.IndexMain {
		return HashKey, RangeKey, true
	}
	for _, ix := range Indexes {
		if ix.Name == index {
			return ix.PartitionKey, ix.SortKey, true
		}
	}
	return "", "", false
}

// CreateTable creates the Tenger table with the schema above and waits until
// it is active, then turns TTL on. Production tables come from CDK; this is
// for tests and local setups.
func CreateTable(ctx context.Context, client *dynamodb.Client, table string) error {
	attrs := []types.AttributeDefinition{
		{AttributeName: aws.String(HashKey), AttributeType: types.ScalarAttributeTypeS},
		{AttributeName: aws.String(RangeKey), AttributeType: types.ScalarAttributeTypeS},
	}
	gsis := make([]types.GlobalSecondaryIndex, 0, len(Indexes))
	for _, ix := range Indexes {
		attrs = append(attrs,
			types.AttributeDefinition{AttributeName: aws.String(ix.PartitionKey), AttributeType: types.ScalarAttributeTypeS},
			types.AttributeDefinition{AttributeName: aws.String(ix.SortKey), AttributeType: types.ScalarAttributeTypeS},
		)
		gsis = append(gsis, types.GlobalSecondaryIndex{
			IndexName: aws.String(ix.Name),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(ix.PartitionKey), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(ix.SortKey), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		})
	}
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		AttributeDefinitions: attrs,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(HashKey), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(RangeKey), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: gsis,
		BillingMode:            types.BillingModePayPerRequest,
		StreamSpecification: &types.StreamSpecification{
			StreamEnabled:  aws.Bool(true),
			StreamViewType: types.StreamViewTypeNewAndOldImages,
		},
	})
	if err != nil {
		return fmt.Errorf("dynamo: create table %s: %w", table, err)
	}
	if err := waitActive(ctx, client, table); err != nil {
		return err
	}
	_, err = client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String(TTLAttribute),
			Enabled:       aws.Bool(true),
		},
	})
	if err != nil && !ttlAlreadyOn(err) {
		return fmt.Errorf("dynamo: enable ttl on %s: %w", table, err)
	}
	return nil
}

// ttlAlreadyOn tolerates the answer DynamoDB (and DynamoDB Local) gives when
// TTL is already enabled, so CreateTable can be re-run against a table
// someone else created between the two calls.
func ttlAlreadyOn(err error) bool {
	return err != nil && strings.Contains(strings.ToLower(err.Error()), "already enabled")
}

// waitActive polls until the table and its indexes are ACTIVE. The SDK's
// waiter starts at a 20 s delay, far too slow for DynamoDB Local where
// tables are active at once.
func waitActive(ctx context.Context, client *dynamodb.Client, table string) error {
	delay := 50 * time.Millisecond
	for {
		out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		var nf *types.ResourceNotFoundException
		if err != nil && !errors.As(err, &nf) {
			return fmt.Errorf("dynamo: describe table %s: %w", table, err)
		}
		if err == nil && out.Table.TableStatus == types.TableStatusActive && indexesActive(out.Table) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		if delay < 2*time.Second {
			delay *= 2
		}
	}
}

func indexesActive(t *types.TableDescription) bool {
	for _, g := range t.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive {
			return false
		}
	}
	return true
}

// DeleteTable deletes a table; a missing table is not an error. Tests use it
// to clean up.
func DeleteTable(ctx context.Context, client *dynamodb.Client, table string) error {
	_, err := client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	var nf *types.ResourceNotFoundException
	if err != nil && !errors.As(err, &nf) {
		return fmt.Errorf("dynamo: delete table %s: %w", table, err)
	}
	return nil
}
