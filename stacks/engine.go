package stacks

import (
	"fmt"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsec2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsecrassets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsecs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsefs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// engineHealthPort is where engine-fargate serves /healthz.
const engineHealthPort = 8081

// engineDataPath is where the task mounts the engine's EFS directory (its
// journal and book snapshots); engine-fargate reads it from ENGINE_DATA_DIR.
const engineDataPath = "/data"

// engineUID is the distroless nonroot user the engine runs as; the EFS
// access point enforces it for every file the engine writes.
const engineUID = "65532"

// envEngineKey and envEngineListen name the engine task's key (an ECS
// secret from the data stack's EngineKey) and the address of its private
// endpoint.
const (
	envEngineKey    = "ENGINE_KEY"
	envEngineListen = "ENGINE_LISTEN"
)

// engineTasks is how many engine tasks run: one active, one standby.
const engineTasks = 2

// EngineStack runs the matching engine on Fargate: an active task and a
// standby.
type EngineStack struct {
	awscdk.Stack
	Cluster awsecs.Cluster
	Service awsecs.FargateService
	Task    awsecs.FargateTaskDefinition
	// Data is the engine's durable directory (journal and snapshots),
	// reached only through DataAccess.
	Data       awsefs.FileSystem
	DataAccess awsefs.AccessPoint
	// NoActiveEngine is the deployment alarm: no task has been the active
	// engine for two minutes.
	NoActiveEngine awscloudwatch.Alarm
}

// NoActiveEngineAlarm is the alarm on ActiveEngineMetric that no task has
// been the active engine for two minutes (the active task reports six times
// a minute; no reports at all count as none active).
func NoActiveEngineAlarm() *awscloudwatch.CreateAlarmOptions {
	return &awscloudwatch.CreateAlarmOptions{
		AlarmDescription:   jsii.String("no engine task has held the lease and served for two minutes: matching is halted"),
		Threshold:          jsii.Number(3),
		EvaluationPeriods:  jsii.Number(2),
		ComparisonOperator: awscloudwatch.ComparisonOperator_LESS_THAN_THRESHOLD,
		TreatMissingData:   awscloudwatch.TreatMissingData_BREACHING,
	}
}

// ActiveEngineMetric is the sum, per minute, of the engine tasks' ActiveEngine
// reports (engine-fargate/metrics.go): six while one task is active.
func ActiveEngineMetric(cfg Config) awscloudwatch.Metric {
	return awscloudwatch.NewMetric(&awscloudwatch.MetricProps{
		Namespace: jsii.String("Tenger/Engine"), MetricName: jsii.String("ActiveEngine"),
		DimensionsMap: &map[string]*string{"Stage": jsii.String(cfg.Stage)},
		Period:        awscdk.Duration_Minutes(jsii.Number(1)), Statistic: jsii.String("Sum"),
	})
}

// NewEngineStack creates an ECS cluster in the network stack's VPC and a
// Fargate service of two arm64 tasks built from engine-fargate/Dockerfile,
// in the public subnets with a public IP (their egress needs no NAT
// gateway) and the network stack's engine security group, which admits
// only the engine client group on the engine's port.
//
// The engine owns the spot balances and serves a private endpoint on
// enginePort (internal/engine/remote, HMAC-signed with the engine key) that
// the API functions call synchronously. One task is active: it holds the
// engine lease, an item of the table (PK "ENGLEASE", SK "spot") into which
// it writes its private address, and that item is how the functions find
// it. The other is a standby: it waits for the lease to lapse, replays the
// journal and takes over. Deployments are rolling (minimum healthy 50 %,
// maximum 200 %): the new tasks start as standbys, the old active releases
// the lease on SIGTERM (the stop timeout gives it time to finish its
// in-flight commands) and a standby takes over.
//
// The engine's journal and book snapshots live on an encrypted EFS file
// system mounted at /data through an access point (uid 65532, directory
// /engine) with IAM authorization and TLS: the journal is fsynced once per
// batch and must survive the task, the AZ and deployments; without it a
// restarted engine would refuse to start (spot.ErrJournalLost). Only the
// task role may mount and write it, and only the engine's security group
// reaches its NFS port.
func NewEngineStack(scope constructs.Construct, id string, props *awscdk.StackProps, cfg Config, data *DataStack, network *NetworkStack, env map[string]string) *EngineStack {
	st := awscdk.NewStack(scope, jsii.String(id), props)
	s := &EngineStack{Stack: st}
	vpc := network.Vpc
	s.Cluster = awsecs.NewCluster(st, jsii.String("Cluster"), &awsecs.ClusterProps{
		Vpc: vpc,
		// Container Insights: the engine's task count, CPU and memory by
		// task (RunningTaskCount is what the engine-stopped alarm watches).
		ContainerInsightsV2: awsecs.ContainerInsights_ENABLED,
	})

	s.Task = awsecs.NewFargateTaskDefinition(st, jsii.String("EngineTask"), &awsecs.FargateTaskDefinitionProps{
		Cpu:            jsii.Number(engineTaskCPU),
		MemoryLimitMiB: jsii.Number(engineTaskMiB),
		RuntimePlatform: &awsecs.RuntimePlatform{
			CpuArchitecture:       awsecs.CpuArchitecture_ARM64(),
			OperatingSystemFamily: awsecs.OperatingSystemFamily_LINUX(),
		},
	})
	// Least privilege for the engine: read and write the table (its
	// projection of balances and orders, market data, the lease) and,
	// granted by the realtime stack, post the market channels to the
	// WebSocket API's connections. The journal and snapshots are on its
	// file system; the engine key reaches it as an ECS secret (read by the
	// execution role, not the task role).
	data.GrantItems(s.Task.TaskRole(), keySpaceOf(engineGrantee))

	sg := network.EngineSecurityGroup
	s.addDataVolume(cfg, vpc, sg)

	logs := awslogs.NewLogGroup(st, jsii.String("EngineLogs"), &awslogs.LogGroupProps{
		Retention:     awslogs.RetentionDays_ONE_MONTH,
		RemovalPolicy: removalPolicy(cfg),
	})
	containerEnv := map[string]*string{
		"SERVICE": jsii.String("engine"),
		// The stage names the engine's metrics (ActiveEngineMetric) and logs.
		"STAGE":           jsii.String(cfg.Stage),
		"HEALTH_ADDR":     jsii.String(fmt.Sprintf(":%d", engineHealthPort)),
		envEngineListen:   jsii.String(fmt.Sprintf(":%d", enginePort)),
		"ENGINE_DATA_DIR": jsii.String(engineDataPath),
		// The engine looks for a new pair catalogue more often than the
		// functions (30 s), so it has a new pair's book before most of
		// them take orders for it (platform.EnvMarketsPoll).
		"MARKETS_POLL_SECONDS": jsii.String("5"),
		// The reference prices' external sources, reached over the
		// security group's HTTPS egress (platform.EnvPriceSources; the
		// stack tests check the name).
		"REFPRICE_SOURCES": jsii.String(cfg.PriceSources),
	}
	for k, v := range env {
		containerEnv[k] = jsii.String(v)
	}
	container := s.Task.AddContainer(jsii.String("engine"), &awsecs.ContainerDefinitionOptions{
		// Nearly all of the task's CPU share: the trace collector beside it
		// gets the rest (engineTraceCollectorCPU), so under contention the
		// engine comes first. Neither is capped; idle CPU goes to either.
		Cpu: jsii.Number(engineTaskCPU - engineTraceCollectorCPU),
		// A hard limit of its own, the task's memory less the collector's
		// limit: the engine sizes its GC soft limit from its cgroup's
		// memory.max (internal/gctune), which then leaves the collector its
		// share instead of counting the whole task as the engine's.
		MemoryLimitMiB: jsii.Number(engineTaskMiB - engineTraceCollectorMiB),
		// The build context is the module root (the engine imports
		// tenger/internal/...); only what the Go build needs is sent.
		Image: awsecs.ContainerImage_FromAsset(jsii.String(cfg.RepoRoot), &awsecs.AssetImageProps{
			File:       jsii.String("engine-fargate/Dockerfile"),
			Platform:   awsecrassets.Platform_LINUX_ARM64(),
			IgnoreMode: awscdk.IgnoreMode_DOCKER,
			Exclude:    jsii.Strings(engineContextExcludes...),
		}),
		Environment: &containerEnv,
		// The key that signs engine commands, injected by ECS at start;
		// its value is never in the task definition.
		Secrets: &map[string]awsecs.Secret{
			// By its ARN: ECS grants the execution role the secret, and
			// grantSecretRead its key (see there).
			envEngineKey: awsecs.Secret_FromSecretsManager(
				awssecretsmanager.Secret_FromSecretCompleteArn(st, jsii.String("EngineKeyRef"), data.EngineKey.SecretArn()), nil),
		},
		Logging:                awsecs.LogDriver_AwsLogs(&awsecs.AwsLogDriverProps{StreamPrefix: jsii.String("engine"), LogGroup: logs}),
		ReadonlyRootFilesystem: jsii.Bool(true),
		StopTimeout:            awscdk.Duration_Seconds(jsii.Number(90)),
		HealthCheck: &awsecs.HealthCheck{
			// The distroless image has no shell or curl: the engine binary
			// probes its own /healthz.
			Command:  jsii.Strings("CMD", "/engine", "healthcheck"),
			Interval: awscdk.Duration_Seconds(jsii.Number(15)),
			Timeout:  awscdk.Duration_Seconds(jsii.Number(5)),
			Retries:  jsii.Number(3),
			// The health endpoint answers once the engine has recovered
			// (replayed its journal or rebuilt its books from the stored
			// open orders), as the active engine or as the standby, which
			// answers healthy while it waits for the lease. ECS ignores
			// failed checks for the start period (300 s at most), so a long
			// recovery is not killed and started again.
			StartPeriod: awscdk.Duration_Seconds(jsii.Number(300)),
		},
		PortMappings: &[]*awsecs.PortMapping{
			{ContainerPort: jsii.Number(engineHealthPort)},
			{ContainerPort: jsii.Number(enginePort)},
		},
	})
	grantSecretRead(data.EngineKey, s.Task.ObtainExecutionRole())
	// The root filesystem is read-only; /data is the one writable place.
	container.AddMountPoints(&awsecs.MountPoint{
		ContainerPath: jsii.String(engineDataPath), SourceVolume: jsii.String(engineVolume), ReadOnly: jsii.Bool(false),
	})
	s.addTraceCollector(cfg, container, logs)

	// No active engine for two minutes: every task's reports
	// (engine-fargate/metrics.go, every 10 s) say ActiveEngine 0, or none
	// come. A deployment whose new tasks cannot take over is rolled back
	// at once (not after the circuit breaker's three failed tasks).
	noActive := NoActiveEngineAlarm()
	noActive.AlarmName = jsii.String(cfg.prefix() + "-no-active-engine")
	s.NoActiveEngine = ActiveEngineMetric(cfg).CreateAlarm(st, jsii.String("NoActiveEngine"), noActive)
	s.Service = awsecs.NewFargateService(st, jsii.String("EngineService"), &awsecs.FargateServiceProps{
		Cluster:        s.Cluster,
		TaskDefinition: s.Task,
		// One active, one standby; the lease keeps a single engine active.
		// A deployment starts the new pair (as standbys) before it stops the
		// old one, so a standby is always there to take over.
		DesiredCount:      jsii.Number(engineTasks),
		MinHealthyPercent: jsii.Number(100),
		MaxHealthyPercent: jsii.Number(200),
		DeploymentAlarms: &awsecs.DeploymentAlarmConfig{
			AlarmNames: jsii.Strings(*s.NoActiveEngine.AlarmName()),
			Behavior:   awsecs.AlarmBehavior_ROLLBACK_ON_ALARM,
		},
		AssignPublicIp:  jsii.Bool(true),
		VpcSubnets:      &awsec2.SubnetSelection{SubnetType: awsec2.SubnetType_PUBLIC},
		SecurityGroups:  &[]awsec2.ISecurityGroup{sg},
		CircuitBreaker:  &awsecs.DeploymentCircuitBreaker{Rollback: jsii.Bool(true)},
		PlatformVersion: awsecs.FargatePlatformVersion_LATEST,
	})
	// After the container: its execution role's policy exists by now.
	suppress(s.Task, nagReasons{
		"AwsSolutions-ECS2": "The environment holds configuration only (table name, endpoints, stage, ports, " +
			"the trace collector's pipeline); the one secret, the engine key, is injected from Secrets Manager " +
			"(the container's Secrets).",
	})
	suppress(s.Task, nagReasons{
		"AwsSolutions-IAM5": "The execution role's ecr:GetAuthorizationToken has no resource-level permission; " +
			"the image is pulled from the named asset repository.",
	}, `^Resource::\*$`)
	return s
}

// engineVolume names the task's EFS volume.
const engineVolume = "engine-data"

// engineTaskCPU and engineTaskMiB are the task's CPU (a quarter vCPU) and
// memory; the trace collector's share is engineTraceCollectorCPU, its
// memory at most engineTraceCollectorMiB, and the engine container is
// limited to the rest.
const (
	engineTaskCPU           = 256
	engineTaskMiB           = 512
	engineTraceCollectorCPU = 32
	engineTraceCollectorMiB = 128
)

// engineTraceCollector is the ADOT collector image beside the engine,
// pinned: a new collector is a reviewed change, not a task restart.
const engineTraceCollector = "public.ecr.aws/aws-observability/aws-otel-collector:v0.49.0"

// engineOTLPEndpoint is where the engine sends its spans (OTLP/HTTP): the
// collector's receiver, on the task's loopback (the containers of a
// Fargate task share its network namespace), so nothing outside the task
// can send spans to it.
const engineOTLPEndpoint = "127.0.0.1:4318"

// engineTraceRatio is the share of the requests without a caller's trace
// the engine traces (internal/tracing.DefaultRatio); a caller's sampled
// flag decides for the others.
const engineTraceRatio = "0.05"

// engineTraceAnnotations are the engine span's attributes X-Ray indexes
// as annotations, for filter expressions (engine-fargate/tracing.go).
var engineTraceAnnotations = []string{"engine.outcome", "engine.wait", "engine.commands"}

// addTraceCollector runs the AWS Distro for OpenTelemetry collector beside
// the engine: it receives the engine's spans over OTLP/HTTP on the task's
// loopback and puts them into X-Ray as segments of the functions' traces
// (internal/tracing). It is not essential: when it dies the engine runs on
// and only its spans are lost (the engine's exporter drops them, it never
// blocks a request), and ECS restarts it. The engine starts after it and
// so, on a stop, is stopped before it: the spans the engine flushes on
// SIGTERM still find it. The task role may put trace segments; X-Ray's
// actions have no resource-level permissions.
func (s *EngineStack) addTraceCollector(cfg Config, engine awsecs.ContainerDefinition, logs awslogs.ILogGroup) {
	collector := s.Task.AddContainer(jsii.String("otel-collector"), &awsecs.ContainerDefinitionOptions{
		Image:                  awsecs.ContainerImage_FromRegistry(jsii.String(engineTraceCollector), nil),
		Essential:              jsii.Bool(false),
		Cpu:                    jsii.Number(engineTraceCollectorCPU),
		MemoryReservationMiB:   jsii.Number(engineTraceCollectorMiB / 2),
		MemoryLimitMiB:         jsii.Number(engineTraceCollectorMiB),
		ReadonlyRootFilesystem: jsii.Bool(true),
		// A crashed collector is started again (once it has run for the
		// restart period, five minutes, so a crash loop stays slow).
		EnableRestartPolicy: jsii.Bool(true),
		Environment: &map[string]*string{
			// The image reads its whole configuration from this variable.
			"AOT_CONFIG_CONTENT": jsii.String(traceCollectorConfig(*awscdk.Stack_Of(s.Stack).Region())),
			// The Go runtime's soft limit, below the container's hard one.
			"GOMEMLIMIT": jsii.String(fmt.Sprintf("%dMiB", engineTraceCollectorMiB*3/4)),
		},
		Logging: awsecs.LogDriver_AwsLogs(&awsecs.AwsLogDriverProps{StreamPrefix: jsii.String("otel"), LogGroup: logs}),
	})
	engine.AddContainerDependencies(&awsecs.ContainerDependency{
		Container: collector, Condition: awsecs.ContainerDependencyCondition_START,
	})
	// Tracing on in the engine (internal/tracing): spans to the collector,
	// the engine named per stage in X-Ray's trace map.
	engine.AddEnvironment(jsii.String("OTEL_EXPORTER_OTLP_ENDPOINT"), jsii.String("http://"+engineOTLPEndpoint))
	engine.AddEnvironment(jsii.String("OTEL_SERVICE_NAME"), jsii.String(cfg.prefix()+"-engine"))
	engine.AddEnvironment(jsii.String("OTEL_TRACES_SAMPLER_ARG"), jsii.String(engineTraceRatio))

	taskRole := s.Task.TaskRole()
	taskRole.AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid: jsii.String("EngineTraces"),
		Actions: jsii.Strings("xray:PutTraceSegments", "xray:PutTelemetryRecords",
			"xray:GetSamplingRules", "xray:GetSamplingTargets"),
		Resources: jsii.Strings("*"),
	}))
	suppress(taskRole, nagReasons{
		"AwsSolutions-IAM5": "X-Ray's PutTraceSegments, PutTelemetryRecords, GetSamplingRules and GetSamplingTargets " +
			"have no resource-level permissions (X-Ray authorizes them on \"*\" only): the trace collector beside " +
			"the engine puts the engine's trace segments.",
	}, `^Resource::\*$`)
}

// traceCollectorConfig is the collector's configuration: a traces-only
// pipeline (the image's built-in configurations also receive metrics and
// X-Ray daemon traffic, which nothing here sends). OTLP/HTTP in on the
// loopback; the memory limiter keeps the collector inside its container
// limit by refusing spans rather than growing; the ECS task's resource
// attributes added (the segments' origin, task and log group); batches of
// 50, what one PutTraceSegments call takes; out to X-Ray in region, with
// engineTraceAnnotations indexed.
func traceCollectorConfig(region string) string {
	var annotations strings.Builder
	for _, a := range engineTraceAnnotations {
		annotations.WriteString("\n        - " + a)
	}
	return `receivers:
  otlp:
    protocols:
      http:
        endpoint: ` + engineOTLPEndpoint + `
processors:
  memory_limiter:
    check_interval: 1s
    limit_mib: 80
    spike_limit_mib: 20
  resourcedetection:
    detectors: [ecs]
    timeout: 2s
    override: false
  batch/traces:
    timeout: 1s
    send_batch_size: 50
exporters:
  awsxray:
    region: ` + region + `
    indexed_attributes:` + annotations.String() + `
service:
  pipelines:
    traces:
      receivers: [otlp]
      processors: [memory_limiter, resourcedetection, batch/traces]
      exporters: [awsxray]
`
}

// addDataVolume creates the engine's file system (mount targets in the
// task's subnets), its access point and the task volume, and grants the task
// role exactly ClientMount and ClientWrite on that file system through that
// access point.
func (s *EngineStack) addDataVolume(cfg Config, vpc awsec2.IVpc, sg awsec2.ISecurityGroup) {
	st := s.Stack
	taskRole := s.Task.TaskRole()
	s.Data = awsefs.NewFileSystem(st, jsii.String("EngineData"), &awsefs.FileSystemProps{
		Vpc:             vpc,
		VpcSubnets:      &awsec2.SubnetSelection{SubnetType: awsec2.SubnetType_PUBLIC},
		Encrypted:       jsii.Bool(true),
		PerformanceMode: awsefs.PerformanceMode_GENERAL_PURPOSE,
		ThroughputMode:  awsefs.ThroughputMode_ELASTIC,
		// The journal is the engine's memory: keep it when the stack goes
		// (removalPolicy keeps it in production), and back it up.
		RemovalPolicy:          removalPolicy(cfg),
		EnableAutomaticBackups: jsii.Bool(true),
		// Only the task role, over TLS. CDK's "deny anonymous access"
		// default would add a statement granting ClientWrite and
		// ClientRootAccess to any IAM principal through a mount target;
		// with our own policy present, clients it does not name (anonymous
		// NFS clients included) get nothing, so that statement is left out.
		AllowAnonymousAccess: jsii.Bool(true),
		FileSystemPolicy: awsiam.NewPolicyDocument(&awsiam.PolicyDocumentProps{Statements: &[]awsiam.PolicyStatement{
			awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
				Sid:        jsii.String("EngineTaskOnly"),
				Principals: &[]awsiam.IPrincipal{awsiam.NewArnPrincipal(taskRole.RoleArn())},
				Actions:    jsii.Strings("elasticfilesystem:ClientMount", "elasticfilesystem:ClientWrite"),
				Conditions: &map[string]any{"Bool": map[string]any{"aws:SecureTransport": "true"}},
			}),
		}}),
	})
	s.DataAccess = s.Data.AddAccessPoint(jsii.String("EngineAccessPoint"), &awsefs.AccessPointOptions{
		Path:      jsii.String("/engine"),
		PosixUser: &awsefs.PosixUser{Uid: jsii.String(engineUID), Gid: jsii.String(engineUID)},
		CreateAcl: &awsefs.Acl{OwnerUid: jsii.String(engineUID), OwnerGid: jsii.String(engineUID), Permissions: jsii.String("750")},
	})
	// NFS from the engine's security group only (ingress on the file
	// system's group, egress on the engine's; both rules are made in this
	// stack, so the network stack does not depend on it).
	s.Data.Connections().AllowDefaultPortFrom(sg, jsii.String("NFS from the engine task"))
	taskRole.AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("EngineDataMount"),
		Actions:   jsii.Strings("elasticfilesystem:ClientMount", "elasticfilesystem:ClientWrite"),
		Resources: &[]*string{s.Data.FileSystemArn()},
		Conditions: &map[string]any{
			"StringEquals": map[string]any{"elasticfilesystem:AccessPointArn": s.DataAccess.AccessPointArn()},
		},
	}))
	s.Task.AddVolume(&awsecs.Volume{
		Name: jsii.String(engineVolume),
		EfsVolumeConfiguration: &awsecs.EfsVolumeConfiguration{
			FileSystemId:      s.Data.FileSystemId(),
			TransitEncryption: jsii.String("ENABLED"),
			AuthorizationConfig: &awsecs.AuthorizationConfig{
				AccessPointId: s.DataAccess.AccessPointId(),
				Iam:           jsii.String("ENABLED"),
			},
		},
	})
}

// engineContextExcludes keeps the Docker build context (and the asset the
// synth stages into cdk.out) down to what the Go build reads.
var engineContextExcludes = []string{
	"*",
	"!go.mod",
	"!go.sum",
	"!internal",
	"!engine-fargate",
	"!events",
	"**/*_test.go",
	"**/testdata",
}
