from enum import StrEnum


class TransferErrorUserInfoReason(StrEnum):
    BLOBMISSING = "blobMissing"
    BODYSTREAMFAILED = "bodyStreamFailed"
    DIGESTMISMATCH = "digestMismatch"
    EGRESSPOLICY = "egressPolicy"
    FILEWRITEREFUSED = "fileWriteRefused"
    MAXIMUMMESSAGESIZE = "maximumMessageSize"
    METALINKINVALID = "metalinkInvalid"
    MIRRORREFUSED = "mirrorRefused"
    NEEDNEWBODYSTREAM = "needNewBodyStream"
    NETWORKPATHLOST = "networkPathLost"
    OUTSIDEFILEROOT = "outsideFileRoot"
    RESUMEDATAINVALID = "resumeDataInvalid"
    SERVICERESTARTED = "serviceRestarted"
    TIMEOUTINTERVALFORRESOURCE = "timeoutIntervalForResource"
    WEBSOCKETHANDSHAKE = "webSocketHandshake"
    WEBSOCKETPROTOCOL = "webSocketProtocol"

    def __str__(self) -> str:
        return str(self.value)
