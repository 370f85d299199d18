/// AHAP entries both writers (``AHAPWriter``, and the Lofelt-style writer of HapticClip) lay out
/// the same way.
extension JSONTextBuilder {
  /// `"ParameterCurve" : {ParameterID, Time, ParameterCurveControlPoints}` inside an open object.
  package mutating func parameterCurve(id: String, time: Double, points: [(time: Double, value: Double)]) {
    key("ParameterCurve")
    openObject()
    key("ParameterID")
    string(id)
    key("Time")
    number(time)
    key("ParameterCurveControlPoints")
    openArray()
    for point in points {
      openObject()
      key("Time")
      number(point.time)
      key("ParameterValue")
      number(point.value)
      closeObject()
    }
    closeArray()
    closeObject()
  }

  /// `"EventParameters" : [{ParameterID, ParameterValue}, …]` inside an open object.
  package mutating func eventParameters(_ parameters: [(id: String, value: Double)]) {
    key("EventParameters")
    openArray()
    for parameter in parameters {
      openObject()
      key("ParameterID")
      string(parameter.id)
      key("ParameterValue")
      number(parameter.value)
      closeObject()
    }
    closeArray()
  }
}
