"""Contains all the data models used in inputs/outputs"""

from .authentication_challenge import AuthenticationChallenge
from .authentication_challenge_protection_space import AuthenticationChallengeProtectionSpace
from .authentication_challenge_protection_space_authentication_method import (
    AuthenticationChallengeProtectionSpaceAuthenticationMethod,
)
from .authentication_challenge_protection_space_protocol import AuthenticationChallengeProtectionSpaceProtocol
from .base_64http_body import Base64HTTPBody
from .blob import Blob
from .blob_upload_source import BlobUploadSource
from .cache_decision import CacheDecision
from .cached_response import CachedResponse
from .cancel_request import CancelRequest
from .cancel_response import CancelResponse
from .challenge_decision import ChallengeDecision
from .challenge_decision_credential import ChallengeDecisionCredential
from .challenge_decision_disposition import ChallengeDecisionDisposition
from .completion_handler import CompletionHandler
from .cookie import Cookie
from .cookie_input import CookieInput
from .cookie_list import CookieList
from .cookie_same_site_policy_type_1 import CookieSameSitePolicyType1
from .cookie_same_site_policy_type_2_type_1 import CookieSameSitePolicyType2Type1
from .cookie_same_site_policy_type_3_type_1 import CookieSameSitePolicyType3Type1
from .credential import Credential
from .credential_create_request import CredentialCreateRequest
from .credential_create_request_credential import CredentialCreateRequestCredential
from .credential_kind import CredentialKind
from .credential_list import CredentialList
from .credential_persistence import CredentialPersistence
from .data_upload_source import DataUploadSource
from .decision_event_type import DecisionEventType
from .default_credential_request import DefaultCredentialRequest
from .delayed_request_decision import DelayedRequestDecision
from .delayed_request_decision_disposition import DelayedRequestDecisionDisposition
from .delegate import Delegate
from .delegate_delivery import DelegateDelivery
from .delegate_delivery_state import DelegateDeliveryState
from .delegate_input import DelegateInput
from .delegate_patch import DelegatePatch
from .delivery_failure import DeliveryFailure
from .event import Event
from .event_data import EventData
from .event_list import EventList
from .event_type import EventType
from .health_status import HealthStatus
from .health_status_status import HealthStatusStatus
from .http_cookie_accept_policy import HTTPCookieAcceptPolicy
from .http_header_fields import HTTPHeaderFields
from .identity_input import IdentityInput
from .identity_summary import IdentitySummary
from .jsonhttp_body import JSONHTTPBody
from .metalink_input import MetalinkInput
from .multipath_service_type import MultipathServiceType
from .network import Network
from .network_availability_update import NetworkAvailabilityUpdate
from .network_list import NetworkList
from .network_service_type import NetworkServiceType
from .network_type import NetworkType
from .node import Node
from .node_list import NodeList
from .node_list_backend import NodeListBackend
from .node_state import NodeState
from .private_url_cache_configuration import PrivateURLCacheConfiguration
from .problem import Problem
from .problem_quota import ProblemQuota
from .progress import Progress
from .proposed_credential import ProposedCredential
from .proposed_credential_kind import ProposedCredentialKind
from .protection_space import ProtectionSpace
from .protection_space_authentication_method import ProtectionSpaceAuthenticationMethod
from .proxy_dictionary import ProxyDictionary
from .quota_usage import QuotaUsage
from .rate_limit import RateLimit
from .rate_limit_period import RateLimitPeriod
from .readiness_status import ReadinessStatus
from .readiness_status_status import ReadinessStatusStatus
from .redeliver_request import RedeliverRequest
from .redirection_decision import RedirectionDecision
from .redirection_decision_disposition import RedirectionDecisionDisposition
from .request import Request
from .request_cache_policy import RequestCachePolicy
from .response import Response
from .response_all_header_fields import ResponseAllHeaderFields
from .response_decision import ResponseDecision
from .response_decision_disposition import ResponseDecisionDisposition
from .segments import Segments
from .segments_input import SegmentsInput
from .server_trust_challenge import ServerTrustChallenge
from .server_trust_challenge_certificates_item import ServerTrustChallengeCertificatesItem
from .server_trust_challenge_evaluation import ServerTrustChallengeEvaluation
from .server_trust_configuration import ServerTrustConfiguration
from .session import Session
from .session_configuration import SessionConfiguration
from .session_configuration_input import SessionConfigurationInput
from .session_create_request import SessionCreateRequest
from .session_kind import SessionKind
from .session_list import SessionList
from .session_state import SessionState
from .session_update_request import SessionUpdateRequest
from .set_cookies_request import SetCookiesRequest
from .shared_session_update_request import SharedSessionUpdateRequest
from .shared_url_cache_configuration import SharedURLCacheConfiguration
from .storage_scope import StorageScope
from .stored_protection_space import StoredProtectionSpace
from .stored_protection_space_authentication_method import StoredProtectionSpaceAuthenticationMethod
from .stored_protection_space_protocol import StoredProtectionSpaceProtocol
from .stream_read_result import StreamReadResult
from .stream_upload_source import StreamUploadSource
from .stream_write_request import StreamWriteRequest
from .stream_write_result import StreamWriteResult
from .task import Task
from .task_batch_problem import TaskBatchProblem
from .task_batch_request import TaskBatchRequest
from .task_batch_response import TaskBatchResponse
from .task_completion_data import TaskCompletionData
from .task_completion_event import TaskCompletionEvent
from .task_create_request import TaskCreateRequest
from .task_kind import TaskKind
from .task_list import TaskList
from .task_metrics import TaskMetrics
from .task_metrics_task_interval import TaskMetricsTaskInterval
from .task_state import TaskState
from .task_summary import TaskSummary
from .task_update_request import TaskUpdateRequest
from .text_http_body import TextHTTPBody
from .tls_protocol_version import TLSProtocolVersion
from .transaction_metrics import TransactionMetrics
from .transaction_metrics_resource_fetch_type import TransactionMetricsResourceFetchType
from .transfer_error import TransferError
from .transfer_error_domain import TransferErrorDomain
from .transfer_error_user_info import TransferErrorUserInfo
from .transfer_error_user_info_nsurl_error_network_unavailable_reason_key import (
    TransferErrorUserInfoNSURLErrorNetworkUnavailableReasonKey,
)
from .transfer_error_user_info_reason import TransferErrorUserInfoReason
from .trust_exception import TrustException
from .underlying_error import UnderlyingError
from .url_cache_configuration_input import URLCacheConfigurationInput
from .url_cache_configuration_input_storage_type_1 import URLCacheConfigurationInputStorageType1
from .url_cache_configuration_input_storage_type_2_type_1 import URLCacheConfigurationInputStorageType2Type1
from .url_cache_configuration_input_storage_type_3_type_1 import URLCacheConfigurationInputStorageType3Type1
from .url_cache_storage_policy import URLCacheStoragePolicy
from .url_cache_usage import URLCacheUsage
from .usage import Usage
from .usage_quotas import UsageQuotas
from .web_socket_data_message import WebSocketDataMessage
from .web_socket_message import WebSocketMessage
from .web_socket_message_list import WebSocketMessageList
from .web_socket_string_message import WebSocketStringMessage

__all__ = (
    "AuthenticationChallenge",
    "AuthenticationChallengeProtectionSpace",
    "AuthenticationChallengeProtectionSpaceAuthenticationMethod",
    "AuthenticationChallengeProtectionSpaceProtocol",
    "Base64HTTPBody",
    "Blob",
    "BlobUploadSource",
    "CacheDecision",
    "CachedResponse",
    "CancelRequest",
    "CancelResponse",
    "ChallengeDecision",
    "ChallengeDecisionCredential",
    "ChallengeDecisionDisposition",
    "CompletionHandler",
    "Cookie",
    "CookieInput",
    "CookieList",
    "CookieSameSitePolicyType1",
    "CookieSameSitePolicyType2Type1",
    "CookieSameSitePolicyType3Type1",
    "Credential",
    "CredentialCreateRequest",
    "CredentialCreateRequestCredential",
    "CredentialKind",
    "CredentialList",
    "CredentialPersistence",
    "DataUploadSource",
    "DecisionEventType",
    "DefaultCredentialRequest",
    "DelayedRequestDecision",
    "DelayedRequestDecisionDisposition",
    "Delegate",
    "DelegateDelivery",
    "DelegateDeliveryState",
    "DelegateInput",
    "DelegatePatch",
    "DeliveryFailure",
    "Event",
    "EventData",
    "EventList",
    "EventType",
    "HTTPCookieAcceptPolicy",
    "HTTPHeaderFields",
    "HealthStatus",
    "HealthStatusStatus",
    "IdentityInput",
    "IdentitySummary",
    "JSONHTTPBody",
    "MetalinkInput",
    "MultipathServiceType",
    "Network",
    "NetworkAvailabilityUpdate",
    "NetworkList",
    "NetworkServiceType",
    "NetworkType",
    "Node",
    "NodeList",
    "NodeListBackend",
    "NodeState",
    "PrivateURLCacheConfiguration",
    "Problem",
    "ProblemQuota",
    "Progress",
    "ProposedCredential",
    "ProposedCredentialKind",
    "ProtectionSpace",
    "ProtectionSpaceAuthenticationMethod",
    "ProxyDictionary",
    "QuotaUsage",
    "RateLimit",
    "RateLimitPeriod",
    "ReadinessStatus",
    "ReadinessStatusStatus",
    "RedeliverRequest",
    "RedirectionDecision",
    "RedirectionDecisionDisposition",
    "Request",
    "RequestCachePolicy",
    "Response",
    "ResponseAllHeaderFields",
    "ResponseDecision",
    "ResponseDecisionDisposition",
    "Segments",
    "SegmentsInput",
    "ServerTrustChallenge",
    "ServerTrustChallengeCertificatesItem",
    "ServerTrustChallengeEvaluation",
    "ServerTrustConfiguration",
    "Session",
    "SessionConfiguration",
    "SessionConfigurationInput",
    "SessionCreateRequest",
    "SessionKind",
    "SessionList",
    "SessionState",
    "SessionUpdateRequest",
    "SetCookiesRequest",
    "SharedSessionUpdateRequest",
    "SharedURLCacheConfiguration",
    "StorageScope",
    "StoredProtectionSpace",
    "StoredProtectionSpaceAuthenticationMethod",
    "StoredProtectionSpaceProtocol",
    "StreamReadResult",
    "StreamUploadSource",
    "StreamWriteRequest",
    "StreamWriteResult",
    "TLSProtocolVersion",
    "Task",
    "TaskBatchProblem",
    "TaskBatchRequest",
    "TaskBatchResponse",
    "TaskCompletionData",
    "TaskCompletionEvent",
    "TaskCreateRequest",
    "TaskKind",
    "TaskList",
    "TaskMetrics",
    "TaskMetricsTaskInterval",
    "TaskState",
    "TaskSummary",
    "TaskUpdateRequest",
    "TextHTTPBody",
    "TransactionMetrics",
    "TransactionMetricsResourceFetchType",
    "TransferError",
    "TransferErrorDomain",
    "TransferErrorUserInfo",
    "TransferErrorUserInfoNSURLErrorNetworkUnavailableReasonKey",
    "TransferErrorUserInfoReason",
    "TrustException",
    "URLCacheConfigurationInput",
    "URLCacheConfigurationInputStorageType1",
    "URLCacheConfigurationInputStorageType2Type1",
    "URLCacheConfigurationInputStorageType3Type1",
    "URLCacheStoragePolicy",
    "URLCacheUsage",
    "UnderlyingError",
    "Usage",
    "UsageQuotas",
    "WebSocketDataMessage",
    "WebSocketMessage",
    "WebSocketMessageList",
    "WebSocketStringMessage",
)
