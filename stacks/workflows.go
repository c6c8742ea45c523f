package stacks

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awseventstargets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambdaeventsources"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssqs"
	sfn "github.com/aws/aws-cdk-go/awscdk/v2/awsstepfunctions"
	tasks "github.com/aws/aws-cdk-go/awscdk/v2/awsstepfunctionstasks"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// Error names the workflow function raises (its Go error type names, which
// Lambda reports as the error type; functions/workflow/steps.go) and the
// one a rail's failed task token carries (sfntask.ErrorRejected).
const (
	// errTransient: a dependency was briefly unavailable; retrying is safe
	// because every step is idempotent on the withdrawal id.
	errTransient = "Transient"
	// errUnknown and errMalformed: no such withdrawal, or an unusable
	// input; nothing can be retried or released.
	errUnknown   = "UnknownWithdrawal"
	errMalformed = "Malformed"
	// errRailRejected: the chain or bank answered no (SendTaskFailure).
	errRailRejected = "RailRejected"
)

// confirmationTimeout bounds the wait for the chain or bank confirmation;
// after it the withdrawal is released back to the user.
const confirmationTimeoutHours = 72

// Rails modes of the workflow function (functions/workflow RAILS).
const (
	railsSimulated = "simulated"
	railsNone      = "none"
)

// railsFor picks the withdrawal rails of a stage: there are no real chain
// or bank rails yet, so production has none (a send is refused and the
// withdrawal released, never pretended), and every other stage runs the
// simulators, which confirm at once.
func railsFor(cfg Config) string {
	if cfg.Stage == StageProd {
		return railsNone
	}
	return railsSimulated
}

// WorkflowsStack holds the withdrawal state machine, its step function and
// the starter that launches an execution per submitted withdrawal.
type WorkflowsStack struct {
	awscdk.Stack
	Withdrawal sfn.StateMachine
	Function   awslambda.Function
	// Starter consumes the table's stream (WF# inserts) and starts executions.
	Starter awslambda.Function
	// StarterDLQ receives the descriptions of stream batches it could not start.
	StarterDLQ awssqs.Queue
	// P2PTimeout waits for a P2P order's payment deadline and runs
	// P2PTimeoutFn, which cancels the order if it is still unpaid.
	P2PTimeout   sfn.StateMachine
	P2PTimeoutFn awslambda.Function
	// Competition ranks the futures competitions every minute and pays
	// their prizes once they end (an EventBridge schedule invokes it).
	Competition awslambda.Function
}

// NewWorkflowsStack creates the withdrawal workflow. Every task calls the
// workflow function with {step, withdrawal: {withdrawalId}, taskToken on
// await, detail and error for release}; it answers internal/withdraw's
// StepOutput at $.result, and the Route choice follows its next field:
//
//	Start → Validate → Route → Hold → Route → Send → Route → AwaitConfirmation
//	  (task token; the rail answers)  → Settle → Route → Settled
//	next "release", a RailRejected or timed-out confirmation, or a step that
//	keeps failing → Release → Released (or Settled when it had settled)
//	release fails → ReleaseFailed; settle fails → SettleFailed (operators)
//	unknown withdrawal or malformed input → Unknown
//
// Every task retries Transient errors with backoff (Lambda's own service
// errors are retried by the integration); settle and release retry longer
// because held money must end settled or released.
//
// The workflow function holds, settles and releases spot balances, which
// the engine owns, so it calls the engine's private endpoint (engine).
func NewWorkflowsStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, data *DataStack, engine *engineClient, env map[string]string) *WorkflowsStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &WorkflowsStack{Stack: st}
	machineName := cfg.prefix() + "-withdrawal"
	fnEnv := map[string]string{"RAILS": railsFor(cfg)}
	for k, v := range env {
		fnEnv[k] = v
	}
	s.Function = newGoFunction(st, cfg, goFunctionProps{
		Name: "workflow", Description: "withdrawal workflow steps", Env: fnEnv, TimeoutSec: 30,
		Engine: engine,
	})
	data.GrantItems(s.Function, keySpaceOf("workflow"))
	// The simulated rails complete the await state's task token from the
	// function itself. The ARN is built from the machine's name: granting
	// on the machine's own ARN would make the function depend on the
	// machine, which depends on the function.
	s.Function.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:     jsii.String("CompleteWithdrawalTasks"),
		Actions: jsii.Strings("states:SendTaskSuccess", "states:SendTaskFailure"),
		Resources: &[]*string{st.FormatArn(&awscdk.ArnComponents{
			Service: jsii.String("states"), Resource: jsii.String("stateMachine"), ResourceName: jsii.String(machineName),
			ArnFormat: awscdk.ArnFormat_COLON_RESOURCE_NAME,
		})},
	}))

	step := func(id, name string, pattern sfn.IntegrationPattern, retries float64) tasks.LambdaInvoke {
		payload := map[string]interface{}{
			"step":          name,
			"withdrawal":    sfn.JsonPath_ObjectAt(jsii.String("$.withdrawal")),
			"executionId":   sfn.JsonPath_ExecutionId(),
			"correlationId": sfn.JsonPath_StringAt(jsii.String("$.correlationId")),
			"detail":        sfn.JsonPath_StringAt(jsii.String("$.result.detail")),
			"error":         sfn.JsonPath_ObjectAt(jsii.String("$.error")),
		}
		props := &tasks.LambdaInvokeProps{
			LambdaFunction:      liveOf(s.Function),
			PayloadResponseOnly: jsii.Bool(true),
			ResultPath:          jsii.String("$.result"),
			TaskTimeout:         sfn.Timeout_Duration(awscdk.Duration_Minutes(jsii.Number(2))),
		}
		if pattern == sfn.IntegrationPattern_WAIT_FOR_TASK_TOKEN {
			payload["taskToken"] = sfn.JsonPath_TaskToken()
			props.PayloadResponseOnly = nil
			props.IntegrationPattern = pattern
			// The rail's answer (sfntask.Output) is kept apart from the
			// step results.
			props.ResultPath = jsii.String("$.confirmation")
			props.TaskTimeout = sfn.Timeout_Duration(awscdk.Duration_Hours(jsii.Number(confirmationTimeoutHours)))
		}
		props.Payload = sfn.TaskInput_FromObject(&payload)
		t := tasks.NewLambdaInvoke(st, jsii.String(id), props)
		// A function timeout (Sandbox.Timedout, formerly Lambda.Unknown)
		// is retried like a transient error: the step may or may not have
		// finished, and running it again is safe.
		t.AddRetry(&sfn.RetryProps{
			Errors:         jsii.Strings(errTransient, "Sandbox.Timedout", "Lambda.Unknown"),
			Interval:       awscdk.Duration_Seconds(jsii.Number(2)),
			BackoffRate:    jsii.Number(2),
			MaxAttempts:    jsii.Number(retries),
			MaxDelay:       awscdk.Duration_Minutes(jsii.Number(5)),
			JitterStrategy: sfn.JitterType_FULL,
		})
		return t
	}

	validate := step("Validate", "validate", sfn.IntegrationPattern_REQUEST_RESPONSE, 5)
	hold := step("Hold", "hold", sfn.IntegrationPattern_REQUEST_RESPONSE, 5)
	send := step("Send", "send", sfn.IntegrationPattern_REQUEST_RESPONSE, 10)
	await := step("AwaitConfirmation", "await", sfn.IntegrationPattern_WAIT_FOR_TASK_TOKEN, 5)
	settle := step("Settle", "settle", sfn.IntegrationPattern_REQUEST_RESPONSE, 20)
	release := step("Release", "release", sfn.IntegrationPattern_REQUEST_RESPONSE, 20)

	unknown := sfn.NewFail(st, jsii.String("Unknown"), &sfn.FailProps{
		Error: jsii.String("WithdrawalUnknown"), Cause: jsii.String("no such withdrawal, or a malformed input; nothing was held by this execution"),
	})
	released := sfn.NewFail(st, jsii.String("Released"), &sfn.FailProps{
		Error: jsii.String("WithdrawalReleased"), Cause: jsii.String("the withdrawal was rejected, refused or not confirmed; the hold was released"),
	})
	releaseFailed := sfn.NewFail(st, jsii.String("ReleaseFailed"), &sfn.FailProps{
		Error: jsii.String("ReleaseFailed"), Cause: jsii.String("the hold could not be released; operator action needed"),
	})
	settleFailed := sfn.NewFail(st, jsii.String("SettleFailed"), &sfn.FailProps{
		Error: jsii.String("SettleFailed"), Cause: jsii.String("the confirmed withdrawal could not be booked; operator action needed"),
	})
	done := sfn.NewSucceed(st, jsii.String("Settled"), nil)

	errPath := jsii.String("$.error")
	catchUnknown := func(t tasks.LambdaInvoke) {
		t.AddCatch(unknown, &sfn.CatchProps{Errors: jsii.Strings(errUnknown, errMalformed), ResultPath: errPath})
	}
	for _, t := range []tasks.LambdaInvoke{validate, hold, send, await, settle, release} {
		catchUnknown(t)
	}
	// Validate and hold that keep failing, a send that keeps failing (every
	// send is idempotent per withdrawal at the rail, so retries cannot pay
	// twice), a rejected or timed-out confirmation: release the hold.
	for _, t := range []tasks.LambdaInvoke{validate, hold, send} {
		t.AddCatch(release, &sfn.CatchProps{Errors: jsii.Strings("States.ALL"), ResultPath: errPath})
	}
	await.AddCatch(release, &sfn.CatchProps{Errors: jsii.Strings(errRailRejected, "States.Timeout"), ResultPath: errPath})
	await.AddCatch(release, &sfn.CatchProps{Errors: jsii.Strings("States.ALL"), ResultPath: errPath})
	settle.AddCatch(settleFailed, &sfn.CatchProps{Errors: jsii.Strings("States.ALL"), ResultPath: errPath})
	release.AddCatch(releaseFailed, &sfn.CatchProps{Errors: jsii.Strings("States.ALL"), ResultPath: jsii.String("$.releaseError")})

	next := jsii.String("$.result.next")
	route := sfn.NewChoice(st, jsii.String("Route"), &sfn.ChoiceProps{Comment: jsii.String("follow the step's next")})
	for _, c := range []struct {
		next string
		to   sfn.IChainable
	}{
		{"hold", hold}, {"send", send}, {"await", await}, {"settle", settle}, {"release", release},
		{"done", done}, {"failed", released},
	} {
		route.When(sfn.Condition_StringEquals(next, jsii.String(c.next)), c.to, nil)
	}
	// Anything else is not a state: releasing is always safe (release on a
	// settled withdrawal answers done).
	route.Otherwise(release)
	afterRelease := sfn.NewChoice(st, jsii.String("AfterRelease"), nil).
		When(sfn.Condition_StringEquals(next, jsii.String("done")), done, nil).
		Otherwise(released)

	validate.Next(route)
	hold.Next(route)
	send.Next(route)
	await.Next(settle)
	settle.Next(route)
	release.Next(afterRelease)

	// The execution input is {withdrawal: {withdrawalId}, correlationId}
	// (functions/wfstart); Start adds the empty result and error the tasks
	// read, so every path exists from the first state on.
	start := sfn.NewPass(st, jsii.String("Start"), &sfn.PassProps{
		Parameters: &map[string]interface{}{
			"withdrawal":    sfn.JsonPath_ObjectAt(jsii.String("$.withdrawal")),
			"correlationId": sfn.JsonPath_StringAt(jsii.String("$.correlationId")),
			"result":        map[string]interface{}{"next": "validate", "detail": ""},
			"error":         map[string]interface{}{"Error": "", "Cause": ""},
		},
	})
	definition := start.Next(validate)

	logs := awslogs.NewLogGroup(st, jsii.String("WithdrawalLogs"), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_THREE_MONTHS,
		RemovalPolicy: removalPolicy(cfg),
	})
	s.Withdrawal = sfn.NewStateMachine(st, jsii.String("Withdrawal"), &sfn.StateMachineProps{
		StateMachineName: jsii.String(machineName),
		DefinitionBody:   sfn.DefinitionBody_FromChainable(definition),
		StateMachineType: sfn.StateMachineType_STANDARD,
		Timeout:          awscdk.Duration_Days(jsii.Number(7)),
		// Every state transition is logged (without the withdrawal's data:
		// the steps carry its id only) and traced with X-Ray, so an
		// operator follows one withdrawal from the function that started
		// it through each step.
		Logs: &sfn.LogOptions{
			Destination:          logs,
			Level:                sfn.LogLevel_ALL,
			IncludeExecutionData: jsii.Bool(false),
		},
		TracingEnabled: jsii.Bool(true),
	})
	suppress(s.Withdrawal, nagReasons{"AwsSolutions-IAM5": "The state machine's role: log delivery and X-Ray " +
		"actions have no resource-level permissions (Resource *), and invoking the workflow function's " +
		"versions and aliases needs its ARN with :*; the function itself is named."}, `^Resource::\*$`, `^Resource::<workflowFunction[0-9A-F]+\.Arn>:\*$`)

	s.addP2PTimeout(cfg, data, env)
	s.addStarter(cfg, data, env)
	s.addCompetition(cfg, data, engine, env)
	awscdk.NewCfnOutput(st, jsii.String("WithdrawalStateMachineArn"), &awscdk.CfnOutputProps{Value: s.Withdrawal.StateMachineArn()})
	return s
}

// addCompetition creates the competitions' schedule: every minute the
// competition function ranks every running competition and, after one
// ends, fixes its winners and pays them (prizes are engine commands: an
// engine client). A missed or repeated minute changes nothing that did
// not change; the prizes are paid once by their references.
func (s *WorkflowsStack) addCompetition(cfg Config, data *DataStack, engine *engineClient, env map[string]string) {
	st := s.Stack
	s.Competition = newGoFunction(st, cfg, goFunctionProps{
		Name: "competition", Description: "ranks the futures competitions every minute and pays their prizes once they end",
		Env: env, TimeoutSec: 60, Engine: engine,
	})
	data.GrantItems(s.Competition, keySpaceOf("competition"))
	rule := awsevents.NewRule(st, jsii.String("CompetitionRanking"), &awsevents.RuleProps{
		Description: jsii.String("ranks the futures competitions and pays the prizes of ended ones"),
		Schedule:    awsevents.Schedule_Rate(awscdk.Duration_Minutes(jsii.Number(1))),
	})
	rule.AddTarget(awseventstargets.NewLambdaFunction(liveOf(s.Competition), nil))
}

// starterFilterPrefix is the key prefix of workflow instance items.
const starterFilterPrefix = "WF#"

// addStarter creates the wfstart function on the table's stream, filtered to
// INSERTs of workflow items, allowed to start this state machine only.
// Starting from the oldest record (TRIM_HORIZON) means a withdrawal
// submitted before the starter was deployed still starts; names make a
// second start a no-op.
func (s *WorkflowsStack) addStarter(cfg Config, data *DataStack, env map[string]string) {
	st := s.Stack
	fnEnv := map[string]string{"WITHDRAWAL_STATE_MACHINE_ARN": *s.Withdrawal.StateMachineArn(),
		"P2P_TIMEOUT_STATE_MACHINE_ARN": *s.P2PTimeout.StateMachineArn()}
	for k, v := range env {
		fnEnv[k] = v
	}
	s.Starter = newGoFunction(st, cfg, goFunctionProps{
		Name: "wfstart", Description: "starts the state machine of each submitted withdrawal and of each P2P order's payment deadline", Env: fnEnv, TimeoutSec: 30,
	})
	s.Withdrawal.GrantStartExecution(s.Starter)
	s.P2PTimeout.GrantStartExecution(s.Starter)
	// It marks a started withdrawal's workflow instance handed over, and
	// its sweep reads the instances never handed over.
	data.GrantItems(s.Starter, keySpaceOf("wfstart"))
	// The sweep: every 5 minutes, the withdrawals submitted over 15 minutes
	// ago whose execution never started (their stream record kept failing)
	// are started, so none stays held without its workflow.
	sweep := awsevents.NewRule(st, jsii.String("WithdrawalSweep"), &awsevents.RuleProps{
		Description: jsii.String("starts withdrawals whose workflow never started"),
		Schedule:    awsevents.Schedule_Rate(awscdk.Duration_Minutes(jsii.Number(5))),
	})
	sweep.AddTarget(awseventstargets.NewLambdaFunction(liveOf(s.Starter), nil))
	s.StarterDLQ = awssqs.NewQueue(st, jsii.String("StartFailures"), &awssqs.QueueProps{
		RetentionPeriod: awscdk.Duration_Days(jsii.Number(14)),
		Encryption:      awssqs.QueueEncryption_SQS_MANAGED,
		EnforceSSL:      jsii.Bool(true),
	})
	suppress(s.StarterDLQ, nagReasons{"AwsSolutions-SQS3": reasonTerminalDLQ})
	liveOf(s.Starter).AddEventSource(awslambdaeventsources.NewDynamoEventSource(data.Table, &awslambdaeventsources.DynamoEventSourceProps{
		StartingPosition:        awslambda.StartingPosition_TRIM_HORIZON,
		BatchSize:               jsii.Number(10),
		MaxBatchingWindow:       awscdk.Duration_Seconds(jsii.Number(1)),
		ReportBatchItemFailures: jsii.Bool(true),
		RetryAttempts:           jsii.Number(50),
		MaxRecordAge:            awscdk.Duration_Hours(jsii.Number(24)),
		ParallelizationFactor:   jsii.Number(1),
		OnFailure:               awslambdaeventsources.NewSqsDlq(s.StarterDLQ),
		Filters: &[]*map[string]interface{}{
			awslambda.FilterCriteria_Filter(&map[string]interface{}{
				"eventName": awslambda.FilterRule_IsEqual(jsii.String("INSERT")),
				"dynamodb": map[string]interface{}{
					"Keys": map[string]interface{}{
						"pk": map[string]interface{}{"S": awslambda.FilterRule_BeginsWith(jsii.String(starterFilterPrefix))},
					},
				},
			}),
		},
	}))
}

// Retries of the P2P deadline's task.
const (
	// errNotDue is functions/p2ptimeout's answer when it runs before the
	// deadline (a clock ahead of the Wait state's): tried again shortly.
	errNotDue = "NotDue"
	// errP2PMalformed is its answer to an input without an order.
	errP2PMalformed = "Malformed"
)

// addP2PTimeout creates the P2P payment deadline: the p2ptimeout function
// and a state machine that waits until the deadline wfstart gives it
// ($.deadline, the time the order's workflow instance is due), then runs
// the function once, which cancels the order only if it is still unpaid.
// Many orders each wait in their own execution; a Standard workflow's
// Wait costs nothing while it waits.
//
//	WaitForDeadline (timestamp $.deadline) → Expire → Done
//	Expire answering NotDue is retried every 5 s for 5 minutes; Lambda's
//	own failures and timeouts with backoff for about an hour (the order
//	stays unpaid meanwhile, and the buyer can no longer mark it paid);
//	then Failed, which the workflow alarms report.
func (s *WorkflowsStack) addP2PTimeout(cfg Config, data *DataStack, env map[string]string) {
	st := s.Stack
	s.P2PTimeoutFn = newGoFunction(st, cfg, goFunctionProps{
		Name: "p2ptimeout", Description: "cancels a P2P order still unpaid at its payment deadline", Env: env, TimeoutSec: 30,
	})
	data.GrantItems(s.P2PTimeoutFn, keySpaceOf("p2ptimeout"))
	wait := sfn.NewWait(st, jsii.String("WaitForDeadline"), &sfn.WaitProps{
		Time: sfn.WaitTime_TimestampPath(jsii.String("$.deadline")),
	})
	expire := tasks.NewLambdaInvoke(st, jsii.String("Expire"), &tasks.LambdaInvokeProps{
		LambdaFunction: liveOf(s.P2PTimeoutFn),
		Payload: sfn.TaskInput_FromObject(&map[string]interface{}{
			"orderId":       sfn.JsonPath_StringAt(jsii.String("$.orderId")),
			"correlationId": sfn.JsonPath_StringAt(jsii.String("$.correlationId")),
		}),
		PayloadResponseOnly: jsii.Bool(true),
		ResultPath:          jsii.String("$.result"),
		TaskTimeout:         sfn.Timeout_Duration(awscdk.Duration_Minutes(jsii.Number(1))),
	})
	expire.AddRetry(&sfn.RetryProps{
		Errors:      jsii.Strings(errNotDue),
		Interval:    awscdk.Duration_Seconds(jsii.Number(5)),
		BackoffRate: jsii.Number(1),
		MaxAttempts: jsii.Number(60),
	})
	expire.AddRetry(&sfn.RetryProps{
		Errors:         jsii.Strings("States.ALL"),
		Interval:       awscdk.Duration_Seconds(jsii.Number(2)),
		BackoffRate:    jsii.Number(2),
		MaxAttempts:    jsii.Number(12),
		MaxDelay:       awscdk.Duration_Minutes(jsii.Number(10)),
		JitterStrategy: sfn.JitterType_FULL,
	})
	failed := sfn.NewFail(st, jsii.String("ExpireFailed"), &sfn.FailProps{
		Error: jsii.String("P2PExpireFailed"), Cause: jsii.String("the unpaid order could not be cancelled; operator action needed"),
	})
	expire.AddCatch(failed, &sfn.CatchProps{Errors: jsii.Strings("States.ALL"), ResultPath: jsii.String("$.error")})
	definition := wait.Next(expire).Next(sfn.NewSucceed(st, jsii.String("Done"), nil))
	logs := awslogs.NewLogGroup(st, jsii.String("P2PTimeoutLogs"), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_THREE_MONTHS,
		RemovalPolicy: removalPolicy(cfg),
	})
	s.P2PTimeout = sfn.NewStateMachine(st, jsii.String("P2PTimeout"), &sfn.StateMachineProps{
		StateMachineName: jsii.String(cfg.prefix() + "-p2p-timeout"),
		DefinitionBody:   sfn.DefinitionBody_FromChainable(definition),
		StateMachineType: sfn.StateMachineType_STANDARD,
		// The longest payment time an ad may give is 3 hours.
		Timeout: awscdk.Duration_Hours(jsii.Number(6)),
		Logs: &sfn.LogOptions{
			Destination:          logs,
			Level:                sfn.LogLevel_ALL,
			IncludeExecutionData: jsii.Bool(false),
		},
		TracingEnabled: jsii.Bool(true),
	})
	suppress(s.P2PTimeout, nagReasons{"AwsSolutions-IAM5": "The state machine's role: log delivery and X-Ray " +
		"actions have no resource-level permissions (Resource *), and invoking the p2ptimeout function's " +
		"versions and aliases needs its ARN with :*; the function itself is named."}, `^Resource::\*$`, `^Resource::<p2ptimeoutFunction[0-9A-F]+\.Arn>:\*$`)
	awscdk.NewCfnOutput(st, jsii.String("P2PTimeoutStateMachineArn"), &awscdk.CfnOutputProps{Value: s.P2PTimeout.StateMachineArn()})
}
