"""What a ckanapi call returned, or which of ckanapi's exceptions it raised (and CKAN's error)."""
import ckanapi


def caught(call):
    try:
        return {"returned": call()}
    except ckanapi.ValidationError as e:
        return {"raised": "ValidationError", "error": e.error_dict}
    except ckanapi.NotFound as e:
        return {"raised": "NotFound", "message": str(e)}
    except ckanapi.NotAuthorized as e:
        return {"raised": "NotAuthorized", "message": str(e)}
    except ckanapi.CKANAPIError as e:
        return {"raised": "CKANAPIError", "message": str(e)}
