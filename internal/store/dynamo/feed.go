package dynamo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"tenger/internal/store"
)

// Changes returns the change feed, read from the table's DynamoDB stream.
func (s *Store) Changes() store.Feed { return feed{s: s} }

type feed struct{ s *Store }

const (
	defaultFeedLimit = 100
	maxGetRecords    = 1000 // GetRecords' own limit
	// idWidth pads sequence numbers (decimal strings of up to 40 digits) so
	// that change IDs compare as strings in the order they were written.
	idWidth = 40
	// closedShardEmptyPolls bounds how often an empty page of a closed shard
	// is followed before the next Read tries again.
	closedShardEmptyPolls = 3
)

// checkpoint is the feed position: for each shard, the last sequence number
// delivered, and the closed shards read to their end. Shards drop out of the
// checkpoint once the stream no longer lists them (24 h retention).
type checkpoint struct {
	Seq  map[string]string `json:"s,omitempty"`
	Done []string          `json:"d,omitempty"`
}

func decodeCheckpoint(s string) (*checkpoint, error) {
	cp := &checkpoint{Seq: map[string]string{}}
	if s == "" {
		return cp, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: bad feed checkpoint", store.ErrInvalid)
	}
	if err := json.Unmarshal(raw, cp); err != nil {
		return nil, fmt.Errorf("%w: bad feed checkpoint", store.ErrInvalid)
	}
	if cp.Seq == nil {
		cp.Seq = map[string]string{}
	}
	return cp, nil
}

func (cp *checkpoint) encode() string {
	sort.Strings(cp.Done)
	raw, _ := json.Marshal(cp) // maps of strings always marshal
	return base64.RawURLEncoding.EncodeToString(raw)
}

func (cp *checkpoint) done(shard string) bool {
	for _, d := range cp.Done {
		if d == shard {
			return true
		}
	}
	return false
}

// prune forgets shards the stream no longer lists.
func (cp *checkpoint) prune(present map[string]bool) {
	for id := range cp.Seq {
		if !present[id] {
			delete(cp.Seq, id)
		}
	}
	kept := cp.Done[:0]
	for _, id := range cp.Done {
		if present[id] {
			kept = append(kept, id)
		}
	}
	cp.Done = kept
}

// Read returns up to limit changes after checkpoint. Shards are read parents
// first: a child shard is read only once its parent is finished (or trimmed
// away), which keeps every item's changes in write order across shard splits.
func (f feed) Read(ctx context.Context, checkpointStr string, limit int) ([]store.Change, string, error) {
	s := f.s
	if err := s.check(); err != nil {
		return nil, "", err
	}
	if s.streams == nil {
		return nil, "", errors.New("dynamo: store has no streams client")
	}
	if limit <= 0 {
		limit = defaultFeedLimit
	}
	cp, err := decodeCheckpoint(checkpointStr)
	if err != nil {
		return nil, "", err
	}
	arn, err := s.streamArn(ctx)
	if err != nil {
		return nil, "", err
	}
	shards, err := s.listShards(ctx, arn)
	if err != nil {
		return nil, "", err
	}
	present := make(map[string]bool, len(shards))
	for _, sh := range shards {
		present[aws.ToString(sh.ShardId)] = true
	}

	var out []store.Change
	for _, sh := range orderShards(shards) {
		if len(out) >= limit {
			break
		}
		id := aws.ToString(sh.ShardId)
		if cp.done(id) {
			continue
		}
		if parent := aws.ToString(sh.ParentShardId); parent != "" && present[parent] && !cp.done(parent) {
			continue // the parent still has records to deliver first
		}
		closed := sh.SequenceNumberRange != nil && sh.SequenceNumberRange.EndingSequenceNumber != nil
		changes, finished, err := s.readShard(ctx, arn, id, cp, limit-len(out), closed)
		if err != nil {
			return nil, "", err
		}
		out = append(out, changes...)
		if finished {
			cp.Done = append(cp.Done, id)
		}
	}
	if len(present) > 0 {
		cp.prune(present)
	}
	return out, cp.encode(), nil
}

// readShard reads up to max records of one shard after its checkpointed
// sequence number, advancing cp. finished reports that a closed shard has
// been read to its end.
func (s *Store) readShard(ctx context.Context, arn, shard string, cp *checkpoint, max int, closed bool) ([]store.Change, bool, error) {
	it, err := s.shardIterator(ctx, arn, shard, cp.Seq[shard])
	if err != nil {
		return nil, false, err
	}
	var out []store.Change
	emptyPolls := 0
	for it != nil && len(out) < max {
		res, err := s.streams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{
			ShardIterator: it,
			Limit:         aws.Int32(int32(min(max-len(out), maxGetRecords))),
		})
		if err != nil {
			var nf *streamtypes.ResourceNotFoundException
			if errors.As(err, &nf) {
				return out, false, nil // shard trimmed meanwhile; the next Read re-lists
			}
			return nil, false, fmt.Errorf("dynamo: get records: %w", err)
		}
		for _, r := range res.Records {
			c, err := toChange(r)
			if err != nil {
				return nil, false, err
			}
			out = append(out, c)
			cp.Seq[shard] = aws.ToString(r.Dynamodb.SequenceNumber)
		}
		it = res.NextShardIterator
		if it == nil {
			return out, true, nil // a closed shard, read to its end
		}
		if len(res.Records) == 0 {
			// An open shard with nothing new: caught up. A closed shard may
			// page through empty stretches before its end.
			emptyPolls++
			if !closed || emptyPolls >= closedShardEmptyPolls {
				break
			}
		}
	}
	return out, false, nil
}

// shardIterator starts after seq, or at the oldest retained record when
// there is no position yet or it has been trimmed away.
func (s *Store) shardIterator(ctx context.Context, arn, shard, seq string) (*string, error) {
	in := &dynamodbstreams.GetShardIteratorInput{
		StreamArn:         aws.String(arn),
		ShardId:           aws.String(shard),
		ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon,
	}
	if seq != "" {
		in.ShardIteratorType = streamtypes.ShardIteratorTypeAfterSequenceNumber
		in.SequenceNumber = aws.String(seq)
	}
	out, err := s.streams.GetShardIterator(ctx, in)
	var trimmed *streamtypes.TrimmedDataAccessException
	if seq != "" && errors.As(err, &trimmed) {
		in.ShardIteratorType = streamtypes.ShardIteratorTypeTrimHorizon
		in.SequenceNumber = nil
		out, err = s.streams.GetShardIterator(ctx, in)
	}
	if err != nil {
		return nil, fmt.Errorf("dynamo: shard iterator for %s: %w", shard, err)
	}
	return out.ShardIterator, nil
}

func toChange(r streamtypes.Record) (store.Change, error) {
	if r.Dynamodb == nil {
		return store.Change{}, errors.New("dynamo: stream record without data")
	}
	d := r.Dynamodb
	keys, err := unmarshalStreamItem(d.Keys)
	if err != nil {
		return store.Change{}, err
	}
	c := store.Change{
		ID:   padSeq(aws.ToString(d.SequenceNumber)),
		Kind: store.ChangeKind(r.EventName),
		Key:  keys.Key(),
	}
	if c.Old, err = unmarshalStreamItem(d.OldImage); err != nil {
		return store.Change{}, err
	}
	if c.New, err = unmarshalStreamItem(d.NewImage); err != nil {
		return store.Change{}, err
	}
	if d.ApproximateCreationDateTime != nil {
		c.At = d.ApproximateCreationDateTime.UnixMilli()
	}
	return c, nil
}

func padSeq(seq string) string {
	if len(seq) >= idWidth {
		return seq
	}
	return strings.Repeat("0", idWidth-len(seq)) + seq
}

// orderShards puts every parent before its children (shards whose parent is
// not listed count as roots), roots in shard-id order.
func orderShards(shards []streamtypes.Shard) []streamtypes.Shard {
	byID := make(map[string]streamtypes.Shard, len(shards))
	children := map[string][]string{}
	var roots []string
	for _, sh := range shards {
		byID[aws.ToString(sh.ShardId)] = sh
	}
	for _, sh := range shards {
		id, parent := aws.ToString(sh.ShardId), aws.ToString(sh.ParentShardId)
		if _, ok := byID[parent]; parent != "" && ok {
			children[parent] = append(children[parent], id)
		} else {
			roots = append(roots, id)
		}
	}
	sort.Strings(roots)
	out := make([]streamtypes.Shard, 0, len(shards))
	var visit func(id string)
	visit = func(id string) {
		out = append(out, byID[id])
		kids := children[id]
		sort.Strings(kids)
		for _, k := range kids {
			visit(k)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	return out
}

func (s *Store) listShards(ctx context.Context, arn string) ([]streamtypes.Shard, error) {
	var shards []streamtypes.Shard
	var start *string
	for {
		out, err := s.streams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{
			StreamArn:             aws.String(arn),
			ExclusiveStartShardId: start,
		})
		if err != nil {
			return nil, fmt.Errorf("dynamo: describe stream: %w", err)
		}
		shards = append(shards, out.StreamDescription.Shards...)
		start = out.StreamDescription.LastEvaluatedShardId
		if start == nil {
			return shards, nil
		}
	}
}

func (s *Store) streamArn(ctx context.Context) (string, error) {
	s.streamMu.Lock()
	defer s.streamMu.Unlock()
	if s.streamARN != "" {
		return s.streamARN, nil
	}
	out, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.table)})
	if err != nil {
		return "", fmt.Errorf("dynamo: describe table %s: %w", s.table, err)
	}
	arn := aws.ToString(out.Table.LatestStreamArn)
	if arn == "" {
		return "", fmt.Errorf("dynamo: table %s has no stream", s.table)
	}
	s.streamARN = arn
	return arn, nil
}
