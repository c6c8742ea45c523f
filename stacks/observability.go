package stacks

import (
	"fmt"
	"strconv"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatchactions"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awseventstargets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssns"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssnssubscriptions"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssqs"
	"github.com/aws/aws-cdk-go/awscdk/v2/customresources"
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
	Data      *DataStack
	Api       *ApiStack
	Realtime  *RealtimeStack
	Workflows *WorkflowsStack
	Engine    *EngineStack
	Admin     *AdminStack
	Email     string
	// SMSSpendUSD is the month-to-date SMS spend that raises an alarm
	// (context smsSpendAlarmUsd).
	SMSSpendUSD float64
	// SMSSpendLimitUSD, when set, is the account's monthly SMS spend cap
	// (context smsSpendLimitUsd): SNS sends no SMS past it.
	SMSSpendLimitUSD float64
}

// ContextSMSSpendLimit names the context value with the account's monthly
// SMS spend cap in US dollars (SNS's MonthlySpendLimit). It cannot exceed
// the account's SMS quota (a new account's is $1 until AWS Support raises
// it), so it is set only when given.
const ContextSMSSpendLimit = "smsSpendLimitUsd"

// setSMSSpendLimit sets SNS's account-level MonthlySpendLimit on every
// deploy (an SDK call: CloudFormation has no resource for it).
func (s *ObservabilityStack) setSMSSpendLimit(usd float64) {
	call := &customresources.AwsSdkCall{
		Service: jsii.String("SNS"), Action: jsii.String("setSMSAttributes"),
		Parameters:         map[string]interface{}{"attributes": map[string]interface{}{"MonthlySpendLimit": strconv.FormatFloat(usd, 'f', -1, 64)}},
		PhysicalResourceId: customresources.PhysicalResourceId_Of(jsii.String("sms-spend-limit")),
	}
	cr := customresources.NewAwsCustomResource(s.Stack, jsii.String("SmsSpendLimit"), &customresources.AwsCustomResourceProps{
		OnCreate: call, OnUpdate: call,
		Policy: customresources.AwsCustomResourcePolicy_FromStatements(&[]awsiam.PolicyStatement{
			awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
				Actions: jsii.Strings("sns:SetSMSAttributes"), Resources: jsii.Strings("*"),
			}),
		}),
		InstallLatestAwsSdk: jsii.Bool(false),
	})
	suppress(cr, nagReasons{"AwsSolutions-IAM5": "sns:SetSMSAttributes is an account setting: it has no resource to name."})
	// CDK's provider function of SDK-call resources (one per stack).
	if fn := s.Stack.Node().TryFindChild(jsii.String("AWS679f53fac002430cb0da5b7982bd2287")); fn != nil {
		suppress(fn, nagReasons{"AwsSolutions-IAM4": reasonCDKGenerated, "AwsSolutions-L1": reasonCDKGenerated})
	}
}

// ContextSMSSpendAlarm names the context value with the month-to-date SMS
// spend, in US dollars, that raises an alarm (DefaultSMSSpendAlarm when
// unset). Pumping verification codes to premium numbers shows here first.
const ContextSMSSpendAlarm = "smsSpendAlarmUsd"

// DefaultSMSSpendAlarm is the SMS spend alarm's threshold when the context
// does not set one.
const DefaultSMSSpendAlarm = 50.0

// NewObservabilityStack creates alarms, all notifying one SNS topic, on:
// every dead-letter queue's depth; every function's errors and throttles;
// the stream consumers' iterator age (the change feed falling behind);
// failed and timed-out withdrawal workflows; the HTTP API's 5xx answers and
// p99 latency; the table's throttled requests and transaction conflicts;
// the engine service's running tasks (Container Insights) below its two;
// the account's month-to-date SMS spend. And one dashboard with the same
// figures.
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
	oneMin := awscdk.Duration_Minutes(jsii.Number(1))

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
	}{{"ws", o.Realtime.WS}, {"wsapi", o.Realtime.WSAPI}, {"stream", o.Realtime.Stream}, {"workflow", o.Workflows.Function}, {"wfstart", o.Workflows.Starter}, {"p2ptimeout", o.Workflows.P2PTimeoutFn},
		{"competition", o.Workflows.Competition},
		// An operator's action that fails inside (not a refusal, which
		// the function answers) raises the same alarm as any function's.
		{adminFunction, o.Admin.Function}}...)
	for _, f := range functions {
		add(f.name+"Errors", "function "+f.name+" is failing",
			f.fn.MetricErrors(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")}), 5, 1)
		add(f.name+"Throttles", "function "+f.name+" is throttled",
			f.fn.MetricThrottles(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")}), 1, 1)
	}

	add("WithdrawalFailed", "a withdrawal workflow failed (released, rejected or needs an operator)",
		o.Workflows.Withdrawal.MetricFailed(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")}), 1, 1)
	add("WithdrawalTimedOut", "a withdrawal workflow timed out (its hold needs an operator)",
		o.Workflows.Withdrawal.MetricTimedOut(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")}), 1, 1)
	add("P2PExpireFailed", "a P2P payment deadline failed or timed out: an unpaid order may still hold its escrow (tenger p2p, or cancel it)",
		o.Workflows.P2PTimeout.MetricFailed(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")}), 1, 1)

	// The change feed's consumers falling behind: private updates late,
	// withdrawals not started.
	for _, f := range []struct {
		name string
		fn   awslambda.Function
	}{{"stream", o.Realtime.Stream}, {"wfstart", o.Workflows.Starter}} {
		add(f.name+"IteratorAge", "the "+f.name+" function is more than a minute behind the table's stream",
			awscloudwatch.NewMetric(&awscloudwatch.MetricProps{Namespace: jsii.String("AWS/Lambda"), MetricName: jsii.String("IteratorAge"),
				DimensionsMap: &map[string]*string{"FunctionName": f.fn.FunctionName()}, Period: oneMin, Statistic: jsii.String("Maximum")}),
			60_000, 3)
	}

	api := o.Api.Api
	add("Api5xx", "the HTTP API answers 5xx",
		api.MetricServerError(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")}), 10, 1)
	add("ApiLatencyP99", "the HTTP API's p99 latency is above 2 s",
		api.MetricLatency(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("p99")}), 2000, 3)

	table := o.Data.Table
	add("TableThrottles", "DynamoDB throttled requests on the table",
		awscloudwatch.NewMetric(&awscloudwatch.MetricProps{Namespace: jsii.String("AWS/DynamoDB"), MetricName: jsii.String("ThrottledRequests"),
			DimensionsMap: &map[string]*string{"TableName": table.TableName(), "Operation": jsii.String("TransactWriteItems")},
			Period:        fiveMin, Statistic: jsii.String("Sum")}), 1, 1)
	add("TableTransactionConflicts", "transactions on the table conflict often (hot items)",
		awscloudwatch.NewMetric(&awscloudwatch.MetricProps{Namespace: jsii.String("AWS/DynamoDB"), MetricName: jsii.String("TransactionConflict"),
			DimensionsMap: &map[string]*string{"TableName": table.TableName()}, Period: fiveMin, Statistic: jsii.String("Sum")}), 50, 2)

	if e := o.Engine; e != nil {
		// The engine deployment's alarm (Engine stack) rolls a deployment
		// back; this one tells the operator, at any time.
		a := ActiveEngineMetric(cfg).CreateAlarm(st, jsii.String("NoActiveEngine"), NoActiveEngineAlarm())
		a.AddAlarmAction(action)
		s.Alarms = append(s.Alarms, a)
		// Every engine task that stops (a crash, a failed health check, a
		// deployment, a scale-in), with its reason.
		rule := awsevents.NewRule(st, jsii.String("EngineTaskStoppedEvent"), &awsevents.RuleProps{
			Description: jsii.String("an engine task stopped"),
			EventPattern: &awsevents.EventPattern{
				Source:     jsii.Strings("aws.ecs"),
				DetailType: jsii.Strings("ECS Task State Change"),
				Detail: &map[string]interface{}{
					"clusterArn": []interface{}{e.Cluster.ClusterArn()},
					"lastStatus": []interface{}{"STOPPED"},
				},
			},
		})
		rule.AddTarget(awseventstargets.NewSnsTopic(s.Topic, &awseventstargets.SnsTopicProps{
			Message: awsevents.RuleTargetInput_FromText(jsii.String(fmt.Sprintf("%s: engine task %s stopped: %s (%s)", cfg.prefix(),
				*awsevents.EventField_FromPath(jsii.String("$.detail.taskArn")),
				*awsevents.EventField_FromPath(jsii.String("$.detail.stoppedReason")),
				*awsevents.EventField_FromPath(jsii.String("$.detail.stopCode"))))),
		}))
		tasks := runningTasks(e)
		a = tasks.CreateAlarm(st, jsii.String("EngineTaskStopped"), &awscloudwatch.CreateAlarmOptions{
			AlarmDescription:   jsii.String("fewer engine tasks run than the active and the standby: a task stopped or cannot start"),
			Threshold:          jsii.Number(engineTasks),
			EvaluationPeriods:  jsii.Number(3),
			ComparisonOperator: awscloudwatch.ComparisonOperator_LESS_THAN_THRESHOLD,
			// No data is no task reporting: as bad as none running.
			TreatMissingData: awscloudwatch.TreatMissingData_BREACHING,
		})
		a.AddAlarmAction(action)
		s.Alarms = append(s.Alarms, a)
	}

	spend := o.SMSSpendUSD
	if spend <= 0 {
		spend = DefaultSMSSpendAlarm
	}
	if o.SMSSpendLimitUSD > 0 {
		s.setSMSSpendLimit(o.SMSSpendLimitUSD)
	}
	add("SmsSpend", "the account's month-to-date SMS spend passed the alarm threshold (verification codes pumped?)",
		awscloudwatch.NewMetric(&awscloudwatch.MetricProps{Namespace: jsii.String("AWS/SNS"), MetricName: jsii.String("SMSMonthToDateSpentUSD"),
			Period: awscdk.Duration_Hours(jsii.Number(1)), Statistic: jsii.String("Maximum")}), spend, 1)

	s.addDashboard(cfg, o, functions)
	return s
}

// runningTasks is the engine service's running task count (Container
// Insights).
func runningTasks(e *EngineStack) awscloudwatch.Metric {
	return awscloudwatch.NewMetric(&awscloudwatch.MetricProps{
		Namespace: jsii.String("ECS/ContainerInsights"), MetricName: jsii.String("RunningTaskCount"),
		DimensionsMap: &map[string]*string{"ClusterName": e.Cluster.ClusterName(), "ServiceName": e.Service.ServiceName()},
		Period:        awscdk.Duration_Minutes(jsii.Number(1)), Statistic: jsii.String("Minimum"),
	})
}

// addDashboard draws the figures an operator looks at first: the HTTP
// API's traffic, errors and latency; the functions' errors and
// durations; the engine's tasks, CPU and memory; the table's consumed
// capacity, throttles and conflicts; the change feed's lag; withdrawals.
func (s *ObservabilityStack) addDashboard(cfg Config, o observed, functions []struct {
	name string
	fn   awslambda.Function
}) {
	fiveMin := awscdk.Duration_Minutes(jsii.Number(5))
	graph := func(title string, metrics ...awscloudwatch.IMetric) awscloudwatch.IWidget {
		return awscloudwatch.NewGraphWidget(&awscloudwatch.GraphWidgetProps{Title: jsii.String(title), Left: &metrics, Width: jsii.Number(8)})
	}
	api := o.Api.Api
	var errs, durations []awscloudwatch.IMetric
	for _, f := range functions {
		errs = append(errs, f.fn.MetricErrors(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum"), Label: jsii.String(f.name)}))
		durations = append(durations, f.fn.MetricDuration(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("p99"), Label: jsii.String(f.name)}))
	}
	ddb := func(name, stat string) awscloudwatch.IMetric {
		return awscloudwatch.NewMetric(&awscloudwatch.MetricProps{Namespace: jsii.String("AWS/DynamoDB"), MetricName: jsii.String(name),
			DimensionsMap: &map[string]*string{"TableName": o.Data.Table.TableName()}, Period: fiveMin, Statistic: jsii.String(stat)})
	}
	rows := [][]awscloudwatch.IWidget{
		{
			graph("HTTP API requests", api.MetricCount(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")})),
			graph("HTTP API 4xx and 5xx", api.MetricClientError(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")}),
				api.MetricServerError(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("Sum")})),
			graph("HTTP API latency p50 / p99", api.MetricLatency(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("p50")}),
				api.MetricLatency(&awscloudwatch.MetricOptions{Period: fiveMin, Statistic: jsii.String("p99")})),
		},
		{graph("Function errors", errs...), graph("Function duration p99", durations...),
			graph("Withdrawals", o.Workflows.Withdrawal.MetricStarted(nil), o.Workflows.Withdrawal.MetricSucceeded(nil),
				o.Workflows.Withdrawal.MetricFailed(nil), o.Workflows.Withdrawal.MetricTimedOut(nil))},
		{graph("Table capacity", ddb("ConsumedReadCapacityUnits", "Sum"), ddb("ConsumedWriteCapacityUnits", "Sum")),
			graph("Table throttles and conflicts", ddb("ThrottledRequests", "Sum"), ddb("TransactionConflict", "Sum")),
			graph("Change feed lag (ms)", awscloudwatch.NewMetric(&awscloudwatch.MetricProps{Namespace: jsii.String("AWS/Lambda"),
				MetricName: jsii.String("IteratorAge"), DimensionsMap: &map[string]*string{"FunctionName": o.Realtime.Stream.FunctionName()},
				Period: fiveMin, Statistic: jsii.String("Maximum")}))},
	}
	// Requests by outcome (awslambda: ok, refused, error), of the web
	// app's order entry, the Binance-compatible API and the wallet.
	outcomes := func(service string) awscloudwatch.IWidget {
		var ms []awscloudwatch.IMetric
		for _, o := range []string{"ok", "refused", "error"} {
			ms = append(ms, awscloudwatch.NewMetric(&awscloudwatch.MetricProps{Namespace: jsii.String("Tenger/Api"), MetricName: jsii.String("Requests"),
				DimensionsMap: &map[string]*string{"Service": jsii.String(service), "Outcome": jsii.String(o)},
				Period:        fiveMin, Statistic: jsii.String("Sum"), Label: jsii.String(o)}))
		}
		return graph(service+" requests by outcome", ms...)
	}
	rows = append(rows, []awscloudwatch.IWidget{outcomes("trade"), outcomes("openapi"), outcomes("wallet")})
	if e := o.Engine; e != nil {
		rows = append(rows, []awscloudwatch.IWidget{
			graph("Engine tasks running", runningTasks(e)),
			graph("Engine CPU and memory (%)", e.Service.MetricCpuUtilization(nil), e.Service.MetricMemoryUtilization(nil)),
		})
	}
	d := awscloudwatch.NewDashboard(s.Stack, jsii.String("Dashboard"), &awscloudwatch.DashboardProps{
		DashboardName: jsii.String(cfg.prefix()),
	})
	for _, r := range rows {
		d.AddWidgets(r...)
	}
}
