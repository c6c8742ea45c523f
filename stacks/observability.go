package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatchactions"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssns"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssnssubscriptions"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssqs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// ContextAlarmEmail names the context value with the address alarms are
// mailed to (optional).
const ContextAlarmEmail = "alarmEmail"

// ObservabilityStack holds the alarms and the topic they notify.
type ObservabilityStack struct {
	awscdk.Stack
	Topic  awssns.Topic
	Alarms []awscloudwatch.Alarm
}

// observed is what the alarms watch.
type observed struct {
	Api       *ApiStack
	Realtime  *RealtimeStack
	Workflows *WorkflowsStack
	Email     string
}

// NewObservabilityStack creates alarms on every dead-letter queue's depth,
// every function's errors and throttles and failed withdrawal workflows,
// all notifying one SNS topic.
//
// No alarm watches the engine tasks' count: the AWS/ECS namespace has no
// running task count (RunningTaskCount is a Container Insights metric, which
// the cluster leaves off for its cost), and the sample count of the
// service's CPUUtilization is not documented as one. An engine that stops
// answering shows as the errors of the functions that call it.
func NewObservabilityStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, o observed) *ObservabilityStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &ObservabilityStack{Stack: st}
	s.Topic = awssns.NewTopic(st, jsii.String("Alarms"), &awssns.TopicProps{
		DisplayName: jsii.String(cfg.prefix() + " alarms"),
		EnforceSSL:  jsii.Bool(true),
	})
	if o.Email != "" {
		s.Topic.AddSubscription(awssnssubscriptions.NewEmailSubscription(jsii.String(o.Email), nil))
	}
	action := awscloudwatchactions.NewSnsAction(s.Topic)
	add := func(id, description string, metric awscloudwatch.Metric, threshold, periods float64) {
		a := metric.CreateAlarm(st, jsii.String(id), &awscloudwatch.CreateAlarmOptions{
			AlarmDescription:   jsii.String(description),
			Threshold:          jsii.Number(threshold),
			EvaluationPeriods:  jsii.Number(periods),
			ComparisonOperator: awscloudwatch.ComparisonOperator_GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
			TreatMissingData:   awscloudwatch.TreatMissingData_NOT_BREACHING,
		})
		a.AddAlarmAction(action)
		s.Alarms = append(s.Alarms, a)
	}
	fiveMin := awscdk.Duration_Minutes(jsii.Number(5))

	for _, q := range []struct {
		id  string
		dlq awssqs.Queue
	}{
		{"StreamFailuresDepth", o.Realtime.StreamDLQ},
		{"WorkflowStartFailuresDepth", o.Workflows.StarterDLQ},
	} {
		add(q.id, "messages are waiting in a dead-letter queue",
			q.dlq.MetricApproximateNumberOfMessagesVisible(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Maximum")}),
			1, 1)
	}

	functions := []struct {
		name string
		fn   awslambda.Function
	}{}
	for _, name := range APIFunctionNames() {
		functions = append(functions, struct {
			name string
			fn   awslambda.Function
		}{name, o.Api.Functions[name]})
	}
	functions = append(functions, []struct {
		name string
		fn   awslambda.Function
	}{{"ws", o.Realtime.WS}, {"wsapi", o.Realtime.WSAPI}, {"stream", o.Realtime.Stream}, {"workflow", o.Workflows.Function}, {"wfstart", o.Workflows.Starter}}...)
	for _, f := range functions {
		add(f.name+"Errors", "function "+f.name+" is failing",
			f.fn.MetricErrors(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")}), 5, 1)
		add(f.name+"Throttles", "function "+f.name+" is throttled",
			f.fn.MetricThrottles(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")}), 1, 1)
	}

	add("WithdrawalFailed", "a withdrawal workflow failed (released, rejected or needs an operator)",
		o.Workflows.Withdrawal.MetricFailed(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")}), 1, 1)
	return s
}
