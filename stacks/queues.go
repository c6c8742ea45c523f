package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssqs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// maxReceives is how many times a message is tried before it moves to its
// dead-letter queue (matches the queue port's default in the embedded queue).
const maxReceives = 5

// QueuesStack holds the FIFO queue between the API and the engine, with a
// dead-letter queue. (The engine settles its own events in the table, so
// no queue carries them.)
type QueuesStack struct {
	awscdk.Stack
	// Orders carries order commands to the engine (message group = symbol).
	Orders    awssqs.Queue
	OrdersDLQ awssqs.Queue
}

// NewQueuesStack creates the orders FIFO queue. Content-based
// deduplication is off: producers set the deduplication id to the idempotency
// key of the command ("place:<order id>"; an amend's names its request,
// "amend:<order id>:<lots>:<ms>"; cancels get a random one), so two different
// commands with the same body are never merged and a retried send is.
// Deduplication and throughput are scoped per message group (high-throughput
// FIFO), since ordering is only needed within a symbol.
func NewQueuesStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config) *QueuesStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &QueuesStack{Stack: st}
	s.Orders, s.OrdersDLQ = fifoWithDLQ(st, "Orders", awscdk.Duration_Seconds(jsii.Number(60)))
	awscdk.NewCfnOutput(st, jsii.String("OrdersQueueUrl"), &awscdk.CfnOutputProps{Value: s.Orders.QueueUrl()})
	return s
}

func fifoWithDLQ(scope constructs.Construct, name string, visibility awscdk.Duration) (awssqs.Queue, awssqs.Queue) {
	dlq := awssqs.NewQueue(scope, jsii.String(name+"DLQ"), &awssqs.QueueProps{
		Fifo:                      jsii.Bool(true),
		ContentBasedDeduplication: jsii.Bool(false),
		RetentionPeriod:           awscdk.Duration_Days(jsii.Number(14)),
		Encryption:                awssqs.QueueEncryption_SQS_MANAGED,
		EnforceSSL:                jsii.Bool(true),
	})
	q := awssqs.NewQueue(scope, jsii.String(name), &awssqs.QueueProps{
		Fifo:                      jsii.Bool(true),
		ContentBasedDeduplication: jsii.Bool(false),
		DeduplicationScope:        awssqs.DeduplicationScope_MESSAGE_GROUP,
		FifoThroughputLimit:       awssqs.FifoThroughputLimit_PER_MESSAGE_GROUP_ID,
		VisibilityTimeout:         visibility,
		// Zero: the queue adapter (internal/queue/sqsq) passes its wait per
		// call, and a Receive asking for no wait must return at once.
		ReceiveMessageWaitTime: awscdk.Duration_Seconds(jsii.Number(0)),
		RetentionPeriod:        awscdk.Duration_Days(jsii.Number(4)),
		Encryption:             awssqs.QueueEncryption_SQS_MANAGED,
		EnforceSSL:             jsii.Bool(true),
		DeadLetterQueue: &awssqs.DeadLetterQueue{
			Queue:           dlq,
			MaxReceiveCount: jsii.Number(maxReceives),
		},
	})
	return q, dlq
}
